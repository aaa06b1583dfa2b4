package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.ConversationEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The task's earlier conversation ({@link dev.roundhouse.hub.spi.TurnContext#history()}) as chat-completions
 * messages, cut into exchanges: a user message and everything that answered it. Exchanges are what the
 * context budget keeps or drops, whole, so an assistant message's tool calls always travel with their results.
 *
 * <p>The transcript records a step's calls and results interleaved (call, result, call, result); a provider
 * wants the assistant message with all its {@code tool_calls}, then one {@code tool} message per call id, in
 * order. So consecutive calls gather into one assistant message (a new one starts at assistant text, a user
 * message, or a call id the message already has), each call is answered by its recorded result, a call
 * without one (its turn was stopped or failed meanwhile) by a note saying so, and a result whose call is not
 * in the message before it is left out.
 *
 * <p>Not thread-safe (its messages are Jackson nodes): built and read on the turn's thread, never changed after.
 */
final class PriorConversation {
  static final String NO_RESULT = "(no result was recorded: the turn ended before this tool call finished)";

  /** One user message and what answered it; {@code chars} is the size of its messages as JSON, with their commas. */
  record Exchange(List<ObjectNode> messages, long chars) {
    Exchange {
      messages = List.copyOf(messages);
    }
  }

  private final List<Exchange> exchanges;

  private PriorConversation(List<Exchange> exchanges) {
    this.exchanges = List.copyOf(exchanges);
  }

  static PriorConversation of(List<ConversationEntry> entries) {
    Builder builder = new Builder();
    entries.forEach(builder::add);
    return new PriorConversation(builder.finish());
  }

  List<Exchange> exchanges() {
    return exchanges;
  }

  boolean isEmpty() {
    return exchanges.isEmpty();
  }

  /** Not thread-safe; one per conversion. */
  private static final class Builder {
    private final List<Exchange> done = new ArrayList<>();
    private final List<ObjectNode> exchange = new ArrayList<>();
    private String assistantText;
    private boolean assistantOpen;
    /** The open assistant message's calls, by id, in order; null values wait for a result. */
    private final Map<String, ObjectNode> calls = new LinkedHashMap<>();
    private final Map<String, String> results = new LinkedHashMap<>();
    private int unnamed;

    void add(ConversationEntry entry) {
      switch (entry) {
        case ConversationEntry.UserMessage user -> {
          closeAssistant();
          closeExchange();
          exchange.add(Json.mapper().createObjectNode().put("role", "user").put("content", user.text()));
        }
        case ConversationEntry.AssistantMessage assistant -> {
          closeAssistant();
          assistantOpen = true;
          assistantText = assistant.text();
        }
        case ConversationEntry.ToolCall call -> {
          String id = call.callId().isBlank() ? "call_prior_" + ++unnamed : call.callId();
          if (calls.containsKey(id)) {
            closeAssistant(); // the same id again: a later step that reused it
          }
          assistantOpen = true;
          ObjectNode entryNode = Json.mapper().createObjectNode();
          entryNode.put("id", id);
          entryNode.put("type", "function");
          entryNode.putObject("function").put("name", toolName(call.tool())).put("arguments", arguments(call.input()));
          calls.put(id, entryNode);
        }
        case ConversationEntry.ToolResult result -> {
          if (calls.containsKey(result.callId()) && !results.containsKey(result.callId())) {
            results.put(result.callId(), result.output());
          }
        }
      }
    }

    List<Exchange> finish() {
      closeAssistant();
      closeExchange();
      return done;
    }

    private void closeAssistant() {
      if (!assistantOpen) {
        return;
      }
      boolean hasText = assistantText != null && !assistantText.isEmpty();
      if (hasText || !calls.isEmpty()) {
        ObjectNode message = Json.mapper().createObjectNode().put("role", "assistant");
        if (hasText) {
          message.put("content", assistantText);
        } else {
          message.putNull("content");
        }
        if (!calls.isEmpty()) {
          ArrayNode array = message.putArray("tool_calls");
          calls.values().forEach(array::add);
        }
        exchange.add(message);
        for (String id : calls.keySet()) {
          exchange.add(Json.mapper().createObjectNode()
              .put("role", "tool").put("tool_call_id", id).put("content", results.getOrDefault(id, NO_RESULT)));
        }
      }
      assistantOpen = false;
      assistantText = null;
      calls.clear();
      results.clear();
    }

    private void closeExchange() {
      if (exchange.isEmpty()) {
        return;
      }
      long chars = exchange.stream().mapToLong(message -> message.toString().length() + 1).sum(); // each with its comma
      done.add(new Exchange(exchange, chars));
      exchange.clear();
    }
  }

  /** Arguments as providers want them back: a JSON object's text, {@code {}} for what was not one. */
  private static String arguments(JsonNode input) {
    return input.isObject() ? input.toString() : "{}";
  }

  /** Providers accept only {@code [a-zA-Z0-9_-]{1,64}} as a tool name; another driver's may differ. */
  static String toolName(String tool) {
    String name = tool.replaceAll("[^a-zA-Z0-9_-]", "_");
    if (name.isEmpty()) {
      return "unknown_tool";
    }
    return name.length() <= 64 ? name : name.substring(0, 64);
  }
}
