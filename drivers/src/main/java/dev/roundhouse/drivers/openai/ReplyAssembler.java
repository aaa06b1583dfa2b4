package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Builds a {@link ChatReply} from streamed chunks ({@code choices[0].delta}) or from a whole non-streamed
 * response ({@code choices[0].message}). Tool calls arrive in fragments keyed by {@code index}: the first
 * carries the id and name, the rest append to the arguments. Servers that omit the index (some local ones
 * send each call whole) get one by position.
 *
 * <p>Not thread-safe: one per response.
 */
final class ReplyAssembler {
  private final StringBuilder content = new StringBuilder();
  private final Map<Integer, PartialCall> calls = new TreeMap<>();
  private final Consumer<String> onText;
  private String finishReason;
  private ChatReply.TokenUsage usage;

  private static final class PartialCall {
    String id;
    final StringBuilder name = new StringBuilder();
    final StringBuilder arguments = new StringBuilder();
  }

  /** @param onText called with each fragment of text as it arrives */
  ReplyAssembler(Consumer<String> onText) {
    this.onText = onText;
  }

  /** True once the endpoint has said why the message ended. */
  boolean finished() {
    return finishReason != null;
  }

  /** Applies one streamed chunk. */
  void acceptChunk(JsonNode chunk) {
    readUsage(chunk.get("usage"));
    JsonNode choice = chunk.path("choices").path(0);
    if (choice.isMissingNode()) {
      return;
    }
    JsonNode delta = choice.path("delta");
    appendText(delta.get("content"));
    JsonNode toolCalls = delta.get("tool_calls");
    if (toolCalls != null && toolCalls.isArray()) {
      toolCalls.forEach(this::acceptCallFragment);
    }
    readFinish(choice);
  }

  /** Applies a whole non-streamed response. */
  void acceptMessage(JsonNode response) {
    readUsage(response.get("usage"));
    JsonNode choice = response.path("choices").path(0);
    JsonNode message = choice.path("message");
    appendText(message.get("content"));
    JsonNode toolCalls = message.get("tool_calls");
    if (toolCalls != null && toolCalls.isArray()) {
      for (int position = 0; position < toolCalls.size(); position++) {
        JsonNode call = toolCalls.get(position);
        PartialCall partial = calls.computeIfAbsent(calls.size(), index -> new PartialCall());
        partial.id = text(call.get("id"));
        partial.name.append(nullToEmpty(text(call.path("function").get("name"))));
        partial.arguments.append(argumentsText(call.path("function").get("arguments")));
      }
    }
    readFinish(choice);
  }

  ChatReply reply() {
    List<ChatReply.ToolCallRequest> toolCalls = new ArrayList<>();
    for (PartialCall call : calls.values()) {
      String id = call.id == null || call.id.isBlank() ? "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24) : call.id;
      toolCalls.add(new ChatReply.ToolCallRequest(id, call.name.toString(), call.arguments.toString()));
    }
    return new ChatReply(content.toString(), toolCalls, finishReason, usage);
  }

  private void acceptCallFragment(JsonNode fragment) {
    String id = text(fragment.get("id"));
    int index;
    if (fragment.has("index") && fragment.get("index").canConvertToInt()) {
      index = fragment.get("index").asInt();
    } else {
      // No index: an id not seen yet starts a new call; otherwise the fragment continues the last call.
      PartialCall last = calls.isEmpty() ? null : calls.get(calls.size() - 1);
      boolean startsCall = last == null || id != null && !id.equals(last.id);
      index = startsCall ? calls.size() : calls.size() - 1;
    }
    PartialCall call = calls.computeIfAbsent(index, key -> new PartialCall());
    if (id != null && call.id == null) {
      call.id = id;
    }
    String name = text(fragment.path("function").get("name"));
    if (name != null && !name.isEmpty() && !call.name.toString().equals(name)) {
      call.name.append(name);
    }
    call.arguments.append(argumentsText(fragment.path("function").get("arguments")));
  }

  private void appendText(JsonNode node) {
    if (node != null && node.isTextual() && !node.asText().isEmpty()) {
      content.append(node.asText());
      onText.accept(node.asText());
    }
  }

  private void readFinish(JsonNode choice) {
    String reason = text(choice.get("finish_reason"));
    if (reason != null) {
      finishReason = reason;
    }
  }

  private void readUsage(JsonNode node) {
    if (node == null || !node.isObject()) {
      return;
    }
    JsonNode cost = node.get("cost");
    usage =
        new ChatReply.TokenUsage(
            node.path("prompt_tokens").asLong(0),
            node.path("completion_tokens").asLong(0),
            cost != null && cost.isNumber() ? cost.asDouble() : null);
  }

  /** Arguments are a JSON string on the wire; a few servers send the object itself. */
  private static String argumentsText(JsonNode node) {
    if (node == null || node.isNull()) {
      return "";
    }
    return node.isTextual() ? node.asText() : node.toString();
  }

  private static String text(JsonNode node) {
    return node == null || node.isNull() ? null : node.asText();
  }

  private static String nullToEmpty(String text) {
    return text == null ? "" : text;
  }
}
