package dev.roundhouse.drivers.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.testing.FakeHttpServer;
import dev.roundhouse.drivers.testing.RecordedRequest;
import dev.roundhouse.drivers.testing.SseWriter;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * A fake Gemini API: real HTTP on 127.0.0.1 and a free port, answering each {@code POST
 * /v1beta/models/MODEL:streamGenerateContent?alt=sse} with the next scripted reply (text, function calls,
 * an API error, a stream that stalls) and recording every such model request. A model request with nothing
 * scripted gets a 500 that names it, so a test that asks for more than it scripted fails loudly; any other
 * path gets a 404.
 *
 * <p>Thread-safe, as {@link FakeHttpServer} is; one per test, closed after it.
 */
final class FakeGeminiServer extends FakeHttpServer {

  private FakeGeminiServer() {
    super("the fake Gemini server", "");
  }

  /** Serving at once; {@link #baseUrl()} is what {@code GOOGLE_GEMINI_BASE_URL} is set to. */
  static FakeGeminiServer start() {
    return new FakeGeminiServer();
  }

  @Override
  protected boolean serves(RecordedRequest request) {
    return request.path().contains(":streamGenerateContent");
  }

  @Override
  protected Reply notServed(RecordedRequest request) {
    return apiError(404, "the fake Gemini server has no " + request.path(), "NOT_FOUND");
  }

  @Override
  protected Reply unscripted(RecordedRequest request, int number) {
    return apiError(500, "nothing scripted for model request " + number, "INTERNAL");
  }

  /** Every text and function response a model request carries, in order, as one string. */
  static String contents(RecordedRequest request) {
    return request.json().path("contents").toString();
  }

  // ---- replies ------------------------------------------------------------------------------

  /** The model answers with text, one SSE event per piece, then finishes. */
  static Reply text(String... pieces) {
    return exchange -> streamText(exchange.sse(SseWriter.CRLF), List.of(pieces));
  }

  /** As {@link #text}, with {@code pauseMillis} between events (each arrives on its own). */
  static Reply pacedText(int pauseMillis, List<String> pieces) {
    return exchange -> streamText(exchange.sse(SseWriter.CRLF).paced(Duration.ofMillis(pauseMillis)), pieces);
  }

  /** The model calls one function ({@code args} is a JSON object). */
  static Reply functionCall(String name, String args) {
    return exchange -> {
      ObjectNode call = Json.mapper().createObjectNode();
      call.put("name", name);
      call.set("args", Json.read(args, JsonNode.class));
      exchange.sse(SseWriter.CRLF).data(chunk(part("functionCall", call), true));
    };
  }

  /**
   * The model calls the function it was offered whose name contains {@code nameContains} (Gemini names MCP
   * tools {@code mcp_SERVER_TOOL}), read from the request being answered.
   */
  static Reply callOffered(String nameContains, String args) {
    return exchange -> {
      String name = null;
      for (JsonNode tool : exchange.request().json().path("tools")) {
        for (JsonNode declaration : tool.path("functionDeclarations")) {
          if (declaration.path("name").asText().contains(nameContains)) {
            name = declaration.path("name").asText();
          }
        }
      }
      Reply reply = name == null ? apiError(500, "the model was offered no function like " + nameContains, "INTERNAL") : functionCall(name, args);
      reply.answer(exchange);
    };
  }

  /** The API refuses the request (as Gemini does: {@code {"error": {code, message, status}}}). */
  static Reply apiError(int status, String message, String statusName) {
    ObjectNode error = Json.mapper().createObjectNode();
    error.putObject("error").put("code", status).put("message", message).put("status", statusName);
    return exchange -> exchange.send(status, "application/json", error.toString());
  }

  /** Streams {@code firstPiece}, then holds the stream open until the server closes. */
  static Reply stall(String firstPiece) {
    return exchange -> {
      exchange.sse(SseWriter.CRLF).data(chunk(part("text", firstPiece), false));
      exchange.hold();
    };
  }

  private static void streamText(SseWriter out, List<String> pieces) throws IOException {
    for (int i = 0; i < pieces.size(); i++) {
      out.data(chunk(part("text", pieces.get(i)), i == pieces.size() - 1));
    }
  }

  private static ObjectNode part(String kind, Object value) {
    ObjectNode part = Json.mapper().createObjectNode();
    if (value instanceof JsonNode node) {
      part.set(kind, node);
    } else {
      part.put(kind, String.valueOf(value));
    }
    return part;
  }

  private static String chunk(ObjectNode part, boolean last) {
    ObjectNode chunk = Json.mapper().createObjectNode();
    ObjectNode candidate = chunk.putArray("candidates").addObject();
    ObjectNode content = candidate.putObject("content");
    content.put("role", "model");
    content.putArray("parts").add(part);
    candidate.put("index", 0);
    if (last) {
      candidate.put("finishReason", "STOP");
      chunk.putObject("usageMetadata").put("promptTokenCount", 42).put("candidatesTokenCount", 7).put("totalTokenCount", 49);
    }
    chunk.put("modelVersion", "fake-gemini");
    return chunk.toString();
  }
}
