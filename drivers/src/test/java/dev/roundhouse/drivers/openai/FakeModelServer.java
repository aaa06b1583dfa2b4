package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.testing.FakeHttpServer;
import dev.roundhouse.drivers.testing.RecordedRequest;
import dev.roundhouse.drivers.testing.SseWriter;
import dev.roundhouse.hub.core.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * A fake OpenAI-compatible server (chat completions, models): real HTTP on 127.0.0.1, a free port, answering
 * each request with the next scripted {@link Reply} (whatever its path) and recording what it was sent. A
 * request with no reply scripted gets a 599 that names it, so a test that sends more than it scripted fails
 * loudly.
 *
 * <p>Public (and in the drivers' test-jar) so other modules' end-to-end tests, such as the calendar
 * conversation's, script a model the same way.
 *
 * <p>Thread-safe, as {@link FakeHttpServer} is; one per test, closed after it.
 */
public final class FakeModelServer extends FakeHttpServer {

  private FakeModelServer() {
    super("the fake OpenAI server", "/v1");
  }

  /** Serving at once; {@link #baseUrl()}, the URL the driver is configured with, ends in {@code /v1}. */
  public static FakeModelServer start() {
    return new FakeModelServer();
  }

  @Override
  protected Reply unscripted(RecordedRequest request, int number) {
    return status(599, "{\"error\":{\"message\":\"the fake server has no reply scripted for " + request.method() + " " + request.path() + "\"}}");
  }

  // Replies

  /** 200, a server-sent event stream of these {@code data} payloads, then {@code [DONE]}. */
  public static Reply stream(String... payloads) {
    return exchange -> {
      SseWriter out = exchange.sse();
      for (String payload : payloads) {
        out.data(payload);
      }
      out.data("[DONE]");
    };
  }

  /** A status with a body and headers given as name, value, name, value. */
  public static Reply status(int status, String body, String... headerPairs) {
    return exchange -> {
      for (int i = 0; i < headerPairs.length; i += 2) {
        exchange.header(headerPairs[i], headerPairs[i + 1]);
      }
      exchange.send(status, body.startsWith("{") ? "application/json" : "text/plain", body);
    };
  }

  /** This status, content type and body, written as it is (chunked). */
  public static Reply raw(int status, String contentType, String body) {
    return exchange -> exchange.sendChunked(status, contentType, body);
  }

  /** 200 event-stream headers, {@code partial} of the body, then the connection drops. */
  public static Reply disconnectAfter(String partial) {
    return exchange -> {
      exchange.sendChunked(200, "text/event-stream", partial);
      exchange.drop();
    };
  }

  /** The connection closes before any response byte. */
  public static Reply closeWithoutAnswer() {
    return Exchange::drop;
  }

  /** 200 event-stream headers and {@code partial}, then nothing until the server closes. */
  public static Reply stall(String partial) {
    return exchange -> {
      exchange.sendChunked(200, "text/event-stream", partial);
      exchange.hold();
    };
  }

  // Chunks and bodies

  public static String textChunk(String text) {
    ObjectNode chunk = chunk();
    chunk.putArray("choices").addObject().put("index", 0).putObject("delta").put("content", text);
    return chunk.toString();
  }

  public static String toolCallChunk(int index, String id, String name, String argumentsFragment) {
    ObjectNode chunk = chunk();
    ObjectNode call = chunk.putArray("choices").addObject().put("index", 0).putObject("delta").putArray("tool_calls").addObject();
    call.put("index", index);
    if (id != null) {
      call.put("id", id).put("type", "function");
    }
    ObjectNode function = call.putObject("function");
    if (name != null) {
      function.put("name", name);
    }
    function.put("arguments", argumentsFragment);
    return chunk.toString();
  }

  public static String finishChunk(String reason) {
    ObjectNode chunk = chunk();
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    choice.putObject("delta");
    choice.put("finish_reason", reason);
    return chunk.toString();
  }

  public static String usageChunk(long prompt, long completion) {
    ObjectNode chunk = chunk();
    chunk.putArray("choices");
    chunk.putObject("usage").put("prompt_tokens", prompt).put("completion_tokens", completion).put("total_tokens", prompt + completion);
    return chunk.toString();
  }

  /** A streamed text answer: the pieces, a finish chunk and a usage chunk. */
  public static Reply streamText(String... pieces) {
    List<String> payloads = new ArrayList<>();
    for (String piece : pieces) {
      payloads.add(textChunk(piece));
    }
    payloads.add(finishChunk("stop"));
    payloads.add(usageChunk(10, pieces.length));
    return stream(payloads.toArray(String[]::new));
  }

  /** A streamed answer that calls one tool, with the arguments split in two fragments. */
  public static Reply streamToolCall(String id, String name, String arguments) {
    int half = arguments.length() / 2;
    return stream(
        toolCallChunk(0, id, name, arguments.substring(0, half)),
        toolCallChunk(0, null, null, arguments.substring(half)),
        finishChunk("tool_calls"),
        usageChunk(20, 5));
  }

  /** A non-streamed completion with this text. */
  public static String completion(String text) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("id", "chatcmpl-1").put("object", "chat.completion");
    ObjectNode choice = body.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", "stop");
    choice.putObject("message").put("role", "assistant").put("content", text);
    body.putObject("usage").put("prompt_tokens", 7).put("completion_tokens", 3);
    return body.toString();
  }

  public static String models(String... ids) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("object", "list");
    ArrayNode data = body.putArray("data");
    for (String id : ids) {
      data.addObject().put("id", id).put("object", "model");
    }
    return body.toString();
  }

  private static ObjectNode chunk() {
    ObjectNode chunk = Json.mapper().createObjectNode();
    chunk.put("id", "chatcmpl-1").put("object", "chat.completion.chunk").put("model", "test-model");
    return chunk;
  }
}
