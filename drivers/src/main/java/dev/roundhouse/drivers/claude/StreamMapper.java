package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.TurnEvent;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the CLI's {@code stream-json} output, one line at a time, and says what each line means in the
 * hub's terms: turn events, permission requests, the end of a turn. It decides nothing and writes nothing
 * back: the {@link Sink} does.
 *
 * <table>
 *   <caption>what maps to what</caption>
 *   <tr><td>{@code system/init}</td><td>{@link TurnEvent.SessionStarted} (once per session id)</td></tr>
 *   <tr><td>{@code stream_event} text delta</td><td>{@link TurnEvent.TextDelta}</td></tr>
 *   <tr><td>{@code assistant} text / tool_use block</td><td>{@link TurnEvent.AssistantMessage} / {@link TurnEvent.ToolCall}</td></tr>
 *   <tr><td>{@code assistant} thinking block (the main agent's)</td><td>{@link TurnEvent.Thought}</td></tr>
 *   <tr><td>{@code user} tool_result block</td><td>{@link TurnEvent.ToolResult}; then a {@link TurnEvent.Plan} when it
 *       confirms a change of the to-do list ({@link TodoTracker})</td></tr>
 *   <tr><td>{@code system/permission_denied}</td><td>{@link TurnEvent.PermissionDenied}</td></tr>
 *   <tr><td>{@code control_request/can_use_tool}</td><td>{@link Sink#permission}</td></tr>
 *   <tr><td>{@code result}</td><td>{@link TurnEvent.Usage} (its context fields: the input of the main agent's last
 *       request, and the model's {@code modelUsage.*.contextWindow}), then {@link TurnEvent.Result} unless it is
 *       an error; {@link Sink#ended}</td></tr>
 * </table>
 *
 * <p>Not thread-safe: one per CLI process, fed by one thread.
 */
final class StreamMapper {

  /** Where the mapper's findings go. */
  interface Sink {
    void emit(TurnEvent event);

    /** The CLI asks whether it may use a tool; answer with the request id. */
    void permission(String requestId, PermissionRequest request);

    /** The CLI sent a control request of a kind the driver does not serve. */
    void unsupportedControl(String requestId, String subtype);

    /** The CLI finished answering a message (a {@code result} line). */
    void ended(Ending ending);
  }

  /**
   * How a turn ended.
   *
   * @param problem why it failed, for a human; null when it succeeded
   * @param vanished the session to resume does not exist (any more)
   */
  record Ending(String subtype, String stopReason, String text, String problem, boolean vanished) {
    boolean failed() {
      return problem != null;
    }
  }

  private String sessionId;
  private String model;
  private String permissionMode;
  private BigDecimal lastTotalCost = BigDecimal.ZERO;
  private final TodoTracker todos = new TodoTracker();
  private Long lastRequestInput;
  private int unreadable;
  private int results;

  /** Reads one line of output. A line that is not JSON is counted and skipped (the CLI may log there). */
  void accept(String line, Sink sink) {
    if (line.isBlank()) {
      return;
    }
    JsonNode node;
    try {
      node = Json.mapper().readTree(line);
    } catch (JsonProcessingException e) {
      unreadable++;
      return;
    }
    switch (node.path("type").asText("")) {
      case "system" -> system(node, sink);
      case "stream_event" -> streamEvent(node, sink);
      case "assistant" -> assistant(node, sink);
      case "user" -> user(node, sink);
      case "control_request" -> controlRequest(node, sink);
      case "result" -> result(node, sink);
      default -> {
        // control_response (to an interrupt), keep_alive, rate_limit_event, prompt_suggestion, ...
      }
    }
  }

  /** The session id of the last {@code init}, or null before one. */
  String sessionId() {
    return sessionId;
  }

  /** The model the last {@code init} reported, or null. */
  String model() {
    return model;
  }

  /** The permission mode the last {@code init} reported, or null. */
  String permissionMode() {
    return permissionMode;
  }

  /** How many {@code result} lines were read (counted before any of their events is emitted). */
  int results() {
    return results;
  }

  /** Lines that were not JSON. */
  int unreadable() {
    return unreadable;
  }

  private void system(JsonNode node, Sink sink) {
    switch (node.path("subtype").asText("")) {
      case "init" -> {
        String id = text(node, "session_id");
        model = text(node, "model");
        permissionMode = text(node, "permissionMode");
        if (id != null && !id.equals(sessionId)) {
          sessionId = id;
          sink.emit(new TurnEvent.SessionStarted(id, model));
        }
      }
      case "permission_denied" -> sink.emit(new TurnEvent.PermissionDenied(
          text(node, "tool_use_id"), node.path("tool_name").asText("unknown tool"), node.path("message").asText("denied by Claude Code")));
      default -> {
        // status, api_retry, compact_boundary, hook events: nothing for the transcript
      }
    }
  }

  private static void streamEvent(JsonNode node, Sink sink) {
    if (!node.path("parent_tool_use_id").isNull() && !node.path("parent_tool_use_id").isMissingNode()) {
      return; // a subagent's stream; its tool calls still arrive as assistant lines
    }
    JsonNode event = node.path("event");
    if (event.path("type").asText().equals("content_block_delta") && event.path("delta").path("type").asText().equals("text_delta")) {
      String text = event.path("delta").path("text").asText("");
      if (!text.isEmpty()) {
        sink.emit(new TurnEvent.TextDelta(text));
      }
    }
  }

  private void assistant(JsonNode node, Sink sink) {
    if (node.path("message").path("is_api_error_message").asBoolean(false) || node.path("is_api_error_message").asBoolean(false)) {
      return; // the CLI's own wording of an API error; the result reports it as the turn's error
    }
    boolean mainAgent = isMainAgent(node);
    JsonNode usage = node.path("message").path("usage");
    if (mainAgent && usage.path("input_tokens").isNumber()) {
      lastRequestInput = inputTokens(usage);
    }
    for (JsonNode block : node.path("message").path("content")) {
      switch (block.path("type").asText("")) {
        case "text" -> {
          String text = block.path("text").asText("");
          if (!text.isBlank()) {
            sink.emit(new TurnEvent.AssistantMessage(text));
          }
        }
        case "thinking" -> {
          String thought = block.path("thinking").asText("");
          if (mainAgent && !thought.isBlank()) {
            sink.emit(new TurnEvent.Thought(thought));
          }
        }
        case "tool_use", "server_tool_use", "mcp_tool_use" -> {
          String id = block.path("id").asText("");
          String name = block.path("name").asText("unknown tool");
          sink.emit(new TurnEvent.ToolCall(id, name, block.path("input")));
          if (mainAgent) {
            todos.called(id, name, block.path("input"));
          }
        }
        default -> {
          // redacted_thinking: nothing a human can read
        }
      }
    }
  }

  /** A line of the main agent, not of a subagent it runs (whose lines name the tool call that started it). */
  private static boolean isMainAgent(JsonNode node) {
    JsonNode parent = node.path("parent_tool_use_id");
    return parent.isNull() || parent.isMissingNode();
  }

  /** The input tokens a request's usage counts, cache reads and writes included. */
  private static long inputTokens(JsonNode usage) {
    return usage.path("input_tokens").asLong(0)
        + usage.path("cache_creation_input_tokens").asLong(0)
        + usage.path("cache_read_input_tokens").asLong(0);
  }

  private void user(JsonNode node, Sink sink) {
    if (node.path("isReplay").asBoolean(false)) {
      return;
    }
    JsonNode content = node.path("message").path("content");
    if (!content.isArray()) {
      return; // a plain user message (an echo of ours)
    }
    for (JsonNode block : content) {
      if (block.path("type").asText().equals("tool_result")) {
        String callId = block.path("tool_use_id").asText("");
        boolean isError = block.path("is_error").asBoolean(false);
        sink.emit(new TurnEvent.ToolResult(callId, resultText(block.path("content")), isError));
        todos.finished(callId, isError, node.path("tool_use_result")).ifPresent(sink::emit);
      }
    }
  }

  private static void controlRequest(JsonNode node, Sink sink) {
    String requestId = node.path("request_id").asText("");
    JsonNode request = node.path("request");
    String subtype = request.path("subtype").asText("");
    if (subtype.equals("can_use_tool")) {
      sink.permission(requestId, PermissionRequests.from(request));
    } else {
      sink.unsupportedControl(requestId, subtype);
    }
  }

  private void result(JsonNode node, Sink sink) {
    results++;
    boolean isError = node.path("is_error").asBoolean(false);
    List<String> errors = new ArrayList<>();
    node.path("errors").forEach(error -> errors.add(error.asText()));
    boolean vanished = isError && errors.stream().anyMatch(error -> error.startsWith("No conversation found"));
    String subtype = node.path("subtype").asText("");
    String text = node.path("result").isTextual() ? node.path("result").asText() : null;
    if (!vanished) {
      sink.emit(usage(node));
    }
    String stopReason = text(node, "stop_reason");
    if (!isError) {
      sink.emit(new TurnEvent.Result(stopReason != null ? stopReason : subtype, text));
    }
    sink.ended(new Ending(subtype, stopReason, text, isError ? problem(node, subtype, text, errors) : null, vanished));
  }

  private TurnEvent.Usage usage(JsonNode node) {
    JsonNode usage = node.path("usage");
    long input = inputTokens(usage);
    long output = usage.path("output_tokens").asLong(0);
    Long contextTokens = lastRequestInput;
    lastRequestInput = null; // the next answer reports its own
    Long window = contextWindow(node.path("modelUsage"));
    boolean known = contextTokens != null && window != null; // both or neither: a fill without its window says nothing
    return new TurnEvent.Usage(input, output, cost(node), false, known ? contextTokens : null, known ? window : null);
  }

  /**
   * The context window of the session's model, from {@code modelUsage} (one entry per model the answer used:
   * the session's model, and others a subagent or a title may have used). The session's model's entry, else
   * the largest window reported; null when none is.
   */
  private Long contextWindow(JsonNode modelUsage) {
    Long largest = null;
    for (Map.Entry<String, JsonNode> entry : modelUsage.properties()) {
      JsonNode window = entry.getValue().path("contextWindow");
      if (!window.isNumber() || window.asLong() <= 0) {
        continue;
      }
      if (entry.getKey().equals(model)) {
        return window.asLong();
      }
      largest = largest == null ? window.asLong() : Math.max(largest, window.asLong());
    }
    return largest;
  }

  /**
   * This answer's cost. {@code total_cost_usd} adds up over the process's answers, so the answer's own is
   * {@code model_usage_since_last_result} when the CLI sends it, otherwise the growth of the total.
   */
  private Double cost(JsonNode node) {
    JsonNode total = node.path("total_cost_usd");
    BigDecimal sinceLast = null;
    JsonNode perModel = node.path("model_usage_since_last_result");
    if (perModel.isObject()) {
      sinceLast = BigDecimal.ZERO;
      for (Map.Entry<String, JsonNode> entry : perModel.properties()) {
        sinceLast = sinceLast.add(decimal(entry.getValue().path("costUSD")));
      }
    }
    if (!total.isNumber()) {
      return sinceLast == null ? null : sinceLast.doubleValue();
    }
    BigDecimal now = decimal(total);
    BigDecimal growth = now.subtract(lastTotalCost);
    lastTotalCost = now;
    BigDecimal cost = sinceLast != null ? sinceLast : growth.signum() < 0 ? now : growth;
    return cost.doubleValue();
  }

  private static BigDecimal decimal(JsonNode number) {
    return number.isNumber() ? new BigDecimal(number.asText()) : BigDecimal.ZERO;
  }

  private static String problem(JsonNode node, String subtype, String text, List<String> errors) {
    JsonNode status = node.path("api_error_status");
    if (status.isNumber()) {
      String type = text(node, "api_error_type");
      return "the model API answered " + status.asInt() + (type == null ? "" : " (" + type + ")") + (text == null ? "" : ": " + text);
    }
    if (!errors.isEmpty()) {
      return String.join("; ", errors);
    }
    if (text != null && !text.isBlank()) {
      return text;
    }
    return "Claude Code ended the answer with an error (" + (subtype.isEmpty() ? "no detail" : subtype) + ")";
  }

  /** A tool result's content: a string, or blocks whose text parts are joined. */
  static String resultText(JsonNode content) {
    if (content.isTextual()) {
      return content.asText();
    }
    if (!content.isArray()) {
      return content.isMissingNode() || content.isNull() ? "" : Json.write(content);
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode block : content) {
      if (!text.isEmpty()) {
        text.append('\n');
      }
      text.append(block.path("type").asText().equals("text") ? block.path("text").asText("") : "[" + block.path("type").asText("content") + "]");
    }
    return text.toString();
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isTextual() ? value.asText() : null;
  }
}
