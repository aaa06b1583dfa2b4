package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.testing.FakeHttpServer;
import dev.roundhouse.drivers.testing.RecordedRequest;
import dev.roundhouse.drivers.testing.SseWriter;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.time.Duration;

/**
 * A fake of the OpenAI Responses API as Codex uses it: real HTTP on 127.0.0.1 and a free port, {@code POST
 * /v1/responses} answered with the next scripted {@link Reply} as a server-sent event stream
 * ({@code response.created}, {@code response.output_item.added}, {@code response.output_text.delta}, {@code
 * response.output_item.done}, {@code response.completed} with usage), or an HTTP error, or nothing at all (a
 * hanging endpoint). Records every request. A request with nothing scripted gets a 400 naming it (or the
 * reply given to {@link #otherwise}), so a test that sends more than it scripted fails loudly.
 *
 * <p>Thread-safe, as {@link FakeHttpServer} is; one per test, closed after it.
 */
final class FakeResponsesServer extends FakeHttpServer {
  /** Usage every streamed response reports. */
  static final int INPUT_TOKENS = 1200;
  static final int CACHED_TOKENS = 200;
  static final int OUTPUT_TOKENS = 30;

  private volatile Reply fallback;

  private FakeResponsesServer() {
    super("the fake Responses API server", "/v1");
  }

  /** Serving at once; {@link #baseUrl()}, which Codex's provider points at, ends in {@code /v1}. */
  static FakeResponsesServer start() {
    return new FakeResponsesServer();
  }

  @Override
  protected boolean serves(RecordedRequest request) {
    return request.method().equals("POST") && request.path().endsWith("/responses");
  }

  @Override
  protected Reply unscripted(RecordedRequest request, int number) {
    Reply otherwise = fallback;
    return otherwise != null ? otherwise : error(400, "the fake model server has no reply scripted for request " + number);
  }

  /** Answers every request that has nothing scripted with {@code reply} (an endpoint that always fails, say). */
  void otherwise(Reply reply) {
    fallback = reply;
  }

  /** Assistant text streamed as these deltas. */
  static Reply text(String... deltas) {
    return response(stream -> stream.message("msg_" + System.nanoTime(), deltas));
  }

  /** Assistant text streamed as these deltas, {@code gap} apart (as a model streams them). */
  static Reply pacedText(Duration gap, String... deltas) {
    return response(stream -> stream.paced(gap).message("msg_paced", deltas));
  }

  /** The first delta, then nothing (headers sent, connection open) until the server closes. */
  static Reply stallAfter(String firstDelta) {
    return exchange -> {
      Stream stream = Stream.open(exchange);
      stream.created();
      stream.added(messageItem("msg_stall"), 0);
      stream.textDelta("msg_stall", firstDelta);
      exchange.hold();
    };
  }

  /** A call of Codex's shell tool ({@code exec_command}). */
  static Reply shell(String callId, String command) {
    return response(stream -> stream.item(functionCall(callId, null, "exec_command", Json.write(Json.mapper().createObjectNode().put("cmd", command))), 0));
  }

  /**
   * The model reasons (a {@code reasoning} item whose summary is {@code summary}, streamed as a summary part
   * and its text delta), then calls Codex's {@code update_plan} tool with {@code planJson} (its arguments:
   * {@code {explanation?, plan: [{step, status}]}}).
   */
  static Reply reasonThenPlan(String summary, String callId, String planJson) {
    return response(stream -> {
      String id = "rs_" + callId;
      ObjectNode reasoning = Json.mapper().createObjectNode().put("type", "reasoning").put("id", id);
      reasoning.putArray("summary");
      stream.added(reasoning, 0);
      stream.event("response.reasoning_summary_part.added", Json.mapper().createObjectNode()
          .put("item_id", id).put("output_index", 0).put("summary_index", 0));
      stream.event("response.reasoning_summary_text.delta", Json.mapper().createObjectNode()
          .put("item_id", id).put("output_index", 0).put("summary_index", 0).put("delta", summary));
      ObjectNode done = reasoning.deepCopy();
      done.putArray("summary").addObject().put("type", "summary_text").put("text", summary);
      stream.done(done, 0);
      stream.item(functionCall(callId, null, "update_plan", planJson), 1);
    });
  }

  /** A call of Codex's {@code apply_patch} tool (a freeform "custom" tool). */
  static Reply patch(String callId, String patch) {
    return response(stream -> stream.item(Json.mapper().createObjectNode().put("type", "custom_tool_call").put("id", "ctc_" + callId)
        .put("call_id", callId).put("name", "apply_patch").put("input", patch).put("status", "completed"), 0));
  }

  /** A call of tool {@code name} of MCP server {@code server} (Codex names them {@code mcp__<server>}). */
  static Reply mcpCall(String callId, String server, String name, String argumentsJson) {
    return response(stream -> stream.item(functionCall(callId, "mcp__" + server, name, argumentsJson), 0));
  }

  /** An HTTP error with an OpenAI-style JSON body. */
  static Reply error(int status, String message) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.putObject("error").put("message", message).put("type", "invalid_request_error");
    return exchange -> exchange.send(status, "application/json", Json.write(body));
  }

  /** Reads the request and never answers (no headers, no bytes) until the server closes: a hung endpoint. */
  static Reply hang() {
    return Exchange::hold;
  }

  private static ObjectNode functionCall(String callId, String namespace, String name, String arguments) {
    ObjectNode call = Json.mapper().createObjectNode().put("type", "function_call").put("id", "fc_" + callId).put("call_id", callId);
    if (namespace != null) {
      call.put("namespace", namespace);
    }
    return call.put("name", name).put("arguments", arguments).put("status", "completed");
  }

  /** An assistant message item, in progress and still empty. */
  private static ObjectNode messageItem(String id) {
    ObjectNode message = Json.mapper().createObjectNode().put("type", "message").put("id", id).put("role", "assistant").put("status", "in_progress");
    message.putArray("content");
    return message;
  }

  /** A whole streamed response: {@code response.created}, what {@code body} streams, {@code response.completed}. */
  private static Reply response(Body body) {
    return exchange -> {
      Stream stream = Stream.open(exchange);
      stream.created();
      body.write(stream);
      stream.completed();
    };
  }

  @FunctionalInterface
  private interface Body {
    void write(Stream stream) throws IOException;
  }

  /** One response's events, in the Responses API's shapes. Not thread-safe: used by the answering thread. */
  private static final class Stream {
    private final SseWriter out;
    private final String responseId;

    private Stream(SseWriter out, String responseId) {
      this.out = out;
      this.responseId = responseId;
    }

    static Stream open(Exchange exchange) throws IOException {
      return new Stream(exchange.sse(), "resp_" + exchange.number());
    }

    Stream paced(Duration gap) {
      out.paced(gap);
      return this;
    }

    void event(String type, ObjectNode data) throws IOException {
      out.event(type, Json.write(data.put("type", type)));
    }

    void created() throws IOException {
      ObjectNode data = Json.mapper().createObjectNode();
      data.putObject("response").put("id", responseId).put("status", "in_progress");
      event("response.created", data);
    }

    void added(ObjectNode item, int outputIndex) throws IOException {
      ObjectNode added = Json.mapper().createObjectNode().put("output_index", outputIndex);
      event("response.output_item.added", added.set("item", item));
    }

    void done(ObjectNode item, int outputIndex) throws IOException {
      ObjectNode done = Json.mapper().createObjectNode().put("output_index", outputIndex);
      event("response.output_item.done", done.set("item", item));
    }

    void item(ObjectNode item, int outputIndex) throws IOException {
      added(item, outputIndex);
      done(item, outputIndex);
    }

    void textDelta(String itemId, String delta) throws IOException {
      event("response.output_text.delta", Json.mapper().createObjectNode()
          .put("item_id", itemId).put("output_index", 0).put("content_index", 0).put("delta", delta));
    }

    /** An assistant message streamed as these deltas. */
    void message(String id, String... deltas) throws IOException {
      ObjectNode message = messageItem(id);
      added(message, 0);
      for (String delta : deltas) {
        textDelta(id, delta);
      }
      ObjectNode done = message.deepCopy().put("status", "completed");
      done.putArray("content").addObject().put("type", "output_text").put("text", String.join("", deltas)).putArray("annotations");
      done(done, 0);
    }

    void completed() throws IOException {
      ObjectNode data = Json.mapper().createObjectNode();
      ObjectNode response = data.putObject("response").put("id", responseId).put("status", "completed");
      ObjectNode usage = response.putObject("usage");
      usage.put("input_tokens", INPUT_TOKENS);
      usage.putObject("input_tokens_details").put("cached_tokens", CACHED_TOKENS);
      usage.put("output_tokens", OUTPUT_TOKENS);
      usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
      usage.put("total_tokens", INPUT_TOKENS + OUTPUT_TOKENS);
      event("response.completed", data);
    }
  }
}
