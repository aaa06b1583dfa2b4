package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.testing.FakeHttpServer;
import dev.roundhouse.drivers.testing.RecordedRequest;
import dev.roundhouse.drivers.testing.SseWriter;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * A fake Anthropic Messages API on 127.0.0.1 (a free port) for the real {@code claude} CLI: each {@code
 * POST /v1/messages} is answered with the next scripted {@link Reply}, streamed as the API streams
 * ({@code message_start}, {@code content_block_start/delta/stop} for text, for {@code thinking} and for {@code
 * tool_use} with {@code input_json_delta}, {@code message_delta} with usage and stop reason, {@code message_stop}), or with
 * an error response. It records every request, accepts any role in {@code messages} (the CLI sends a
 * {@code system} entry), and answers a request with nothing scripted with a 400 that names it, so a test
 * that scripted too little fails loudly. Anything else is a 404, listed in {@link #unexpected()}.
 *
 * <p>Thread-safe, as {@link FakeHttpServer} is; one per test, closed after it. Public for other modules'
 * end-to-end tests (the app's ACP test, through the test-jar).
 */
public final class FakeAnthropicServer extends FakeHttpServer {
  private static final Set<String> ROLES = Set.of("user", "assistant", "system");

  private FakeAnthropicServer() {
    super("the fake Anthropic server", "");
  }

  /** Serving at once; {@link #baseUrl()} is what {@code ANTHROPIC_BASE_URL} is set to. */
  public static FakeAnthropicServer start() {
    return new FakeAnthropicServer();
  }

  @Override
  protected boolean serves(RecordedRequest request) {
    return request.method().equals("POST") && request.path().equals("/v1/messages");
  }

  @Override
  protected Reply notServed(RecordedRequest request) {
    return failure(404, "not_found_error", "the fake Anthropic server serves only POST /v1/messages");
  }

  @Override
  protected Reply unscripted(RecordedRequest request, int number) {
    return failure(400, "invalid_request_error", "the fake server has no reply scripted for request " + number);
  }

  @Override
  protected Reply replyTo(RecordedRequest request, int number) {
    for (JsonNode message : request.json().path("messages")) {
      if (!ROLES.contains(message.path("role").asText())) {
        return failure(400, "invalid_request_error", "unknown role " + message.path("role"));
      }
    }
    return super.replyTo(request, number);
  }

  /** The system prompt's text parts of a request, joined. */
  public static String systemPrompt(RecordedRequest request) {
    StringBuilder text = new StringBuilder();
    JsonNode system = request.json().path("system");
    if (system.isTextual()) {
      return system.asText();
    }
    system.forEach(part -> text.append(part.path("text").asText()).append('\n'));
    return text.toString();
  }

  // ---- replies ----

  /** One content block of a streamed answer. */
  public sealed interface Block {}

  /** A text block, streamed as one delta per chunk. */
  record Text(List<String> chunks) implements Block {}

  /** A tool_use block whose input JSON streams in two {@code input_json_delta} fragments. */
  record ToolUse(String id, String name, String inputJson) implements Block {}

  /** A thinking block: its text in one {@code thinking_delta}, then a {@code signature_delta}. */
  record Thinking(String text) implements Block {}

  public static Block text(String... chunks) {
    return new Text(List.of(chunks));
  }

  public static Block toolUse(String id, String name, String inputJson) {
    return new ToolUse(id, name, inputJson);
  }

  public static Block thinking(String text) {
    return new Thinking(text);
  }

  /** A streamed answer with these blocks; the stop reason is {@code tool_use} when one is a tool use. */
  public static Reply answer(Block... blocks) {
    return exchange -> writeAnswer(open(exchange), exchange.request().json(), List.of(blocks), true);
  }

  /** A text answer whose events stream {@code gap} apart, as a model's tokens do. */
  static Reply pacedAnswer(Duration gap, String... chunks) {
    return exchange -> writeAnswer(open(exchange).paced(gap), exchange.request().json(), List.of(text(chunks)), true);
  }

  /** A streamed text answer of these chunks. */
  public static Reply answer(String... chunks) {
    return answer(text(chunks));
  }

  /** An API error: the status and an Anthropic error body. */
  static Reply failure(int status, String type, String message) {
    return exchange -> exchange.header("request-id", "req_fake_error").send(status, "application/json", error(type, message));
  }

  /** Streams {@code chunks} of a text block, then nothing until the server closes. */
  static Reply stall(String... chunks) {
    return exchange -> {
      writeAnswer(open(exchange), exchange.request().json(), List.of(text(chunks)), false);
      exchange.hold();
    };
  }

  /** The 200 event stream of an answer, with the request id the API gives it. */
  private static SseWriter open(Exchange exchange) throws IOException {
    return exchange.header("request-id", "req_fake_" + Long.toHexString(System.nanoTime())).sse();
  }

  private static void writeAnswer(SseWriter out, JsonNode request, List<Block> blocks, boolean finish) throws IOException {
    ObjectNode start = Json.mapper().createObjectNode();
    start.put("type", "message_start");
    ObjectNode message = start.putObject("message");
    message.put("id", "msg_fake_" + Long.toHexString(System.nanoTime())).put("type", "message").put("role", "assistant");
    message.put("model", request.path("model").asText("claude-test"));
    message.putArray("content");
    message.putNull("stop_reason");
    message.putNull("stop_sequence");
    message.putObject("usage").put("input_tokens", 100).put("output_tokens", 1);
    out.event("message_start", start);
    boolean toolUse = false;
    for (int index = 0; index < blocks.size(); index++) {
      Block block = blocks.get(index);
      ObjectNode blockStart = Json.mapper().createObjectNode();
      blockStart.put("type", "content_block_start").put("index", index);
      switch (block) {
        case Text text -> {
          blockStart.putObject("content_block").put("type", "text").put("text", "");
          out.event("content_block_start", blockStart);
          for (String chunk : text.chunks()) {
            out.event("content_block_delta", delta(index, "text_delta", "text", chunk));
          }
        }
        case ToolUse tool -> {
          toolUse = true;
          ObjectNode content = blockStart.putObject("content_block");
          content.put("type", "tool_use").put("id", tool.id()).put("name", tool.name());
          content.putObject("input");
          out.event("content_block_start", blockStart);
          int half = tool.inputJson().length() / 2;
          out.event("content_block_delta", delta(index, "input_json_delta", "partial_json", tool.inputJson().substring(0, half)));
          out.event("content_block_delta", delta(index, "input_json_delta", "partial_json", tool.inputJson().substring(half)));
        }
        case Thinking thinking -> {
          blockStart.putObject("content_block").put("type", "thinking").put("thinking", "").put("signature", "");
          out.event("content_block_start", blockStart);
          out.event("content_block_delta", delta(index, "thinking_delta", "thinking", thinking.text()));
          out.event("content_block_delta", delta(index, "signature_delta", "signature", "sig_fake"));
        }
      }
      if (!finish && index == blocks.size() - 1) {
        return;
      }
      ObjectNode stop = Json.mapper().createObjectNode();
      stop.put("type", "content_block_stop").put("index", index);
      out.event("content_block_stop", stop);
    }
    ObjectNode messageDelta = Json.mapper().createObjectNode();
    messageDelta.put("type", "message_delta");
    messageDelta.putObject("delta").put("stop_reason", toolUse ? "tool_use" : "end_turn").putNull("stop_sequence");
    messageDelta.putObject("usage").put("output_tokens", 20);
    out.event("message_delta", messageDelta);
    ObjectNode messageStop = Json.mapper().createObjectNode();
    messageStop.put("type", "message_stop");
    out.event("message_stop", messageStop);
  }

  private static ObjectNode delta(int index, String type, String field, String value) {
    ObjectNode event = Json.mapper().createObjectNode();
    event.put("type", "content_block_delta").put("index", index);
    event.putObject("delta").put("type", type).put(field, value);
    return event;
  }

  private static String error(String type, String message) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("type", "error");
    body.putObject("error").put("type", type).put("message", message);
    return body.toString();
  }
}
