package dev.roundhouse.lspbridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns the hub's task events into ACP {@code session/update} payloads and decisions into
 * {@code session/request_permission} params. Pure functions over JSON; stateless and thread-safe.
 */
final class AcpUpdates {
  private AcpUpdates() {}

  /** {@code agent_message_chunk} (or {@code user_message_chunk}, {@code agent_thought_chunk}) with text. */
  static ObjectNode chunk(String kind, String text) {
    ObjectNode update = Json.mapper().createObjectNode();
    update.put("sessionUpdate", kind);
    ObjectNode content = update.putObject("content");
    content.put("type", "text");
    content.put("text", text);
    return update;
  }

  /**
   * {@code usage_update}: how much of the context window the conversation fills, and what this prompt's
   * turn has cost so far (null: no cost reported).
   */
  static ObjectNode usage(long used, long size, Double costUsd) {
    ObjectNode update = Json.mapper().createObjectNode();
    update.put("sessionUpdate", "usage_update");
    update.put("used", used);
    update.put("size", size);
    if (costUsd != null) {
      update.putObject("cost").put("amount", costUsd).put("currency", "USD");
    }
    return update;
  }

  /** {@code plan} for a {@code turn.plan} event's data: the whole list, as ACP replaces it each time. */
  static ObjectNode plan(JsonNode data) {
    ObjectNode update = Json.mapper().createObjectNode();
    update.put("sessionUpdate", "plan");
    com.fasterxml.jackson.databind.node.ArrayNode entries = update.putArray("entries");
    for (JsonNode entry : data.path("entries")) {
      entries.addObject()
          .put("content", entry.path("content").asText(""))
          .put("status", entry.path("status").asText("pending"))
          .put("priority", entry.path("priority").asText("medium"));
    }
    return update;
  }

  /** {@code tool_call} for a {@code turn.tool_call} event's data. */
  static ObjectNode toolCall(JsonNode data) {
    String tool = data.path("tool").asText("tool");
    ObjectNode update = Json.mapper().createObjectNode();
    update.put("sessionUpdate", "tool_call");
    update.put("toolCallId", data.path("call_id").asText());
    update.put("title", title(tool, data.get("input")));
    update.put("kind", kind(tool));
    update.put("status", "in_progress");
    if (data.hasNonNull("input")) {
      update.set("rawInput", data.get("input"));
    }
    return update;
  }

  /** {@code tool_call_update} carrying the output so far (ACP replaces the content with each update). */
  static ObjectNode toolOutput(String callId, String outputSoFar) {
    ObjectNode update = toolUpdate(callId, null);
    update.set("content", textContent(outputSoFar));
    return update;
  }

  /** {@code tool_call_update} for a {@code turn.tool_result}: completed or failed, with the output. */
  static ObjectNode toolResult(JsonNode data) {
    ObjectNode update = toolUpdate(data.path("call_id").asText(), data.path("is_error").asBoolean(false) ? "failed" : "completed");
    String output = data.path("output").asText("");
    if (!output.isEmpty()) {
      update.set("content", textContent(output));
    }
    update.put("rawOutput", output);
    return update;
  }

  /** {@code tool_call_update} failed, for a {@code turn.permission_denied}. */
  static ObjectNode toolDenied(JsonNode data) {
    ObjectNode update = toolUpdate(data.path("call_id").asText(), "failed");
    update.set("content", textContent("Denied: " + data.path("reason").asText("permission denied")));
    return update;
  }

  private static ObjectNode toolUpdate(String callId, String status) {
    ObjectNode update = Json.mapper().createObjectNode();
    update.put("sessionUpdate", "tool_call_update");
    update.put("toolCallId", callId);
    if (status != null) {
      update.put("status", status);
    }
    return update;
  }

  private static ArrayNode textContent(String text) {
    ArrayNode content = Json.mapper().createArrayNode();
    ObjectNode block = content.addObject();
    block.put("type", "content");
    ObjectNode inner = block.putObject("content");
    inner.put("type", "text");
    inner.put("text", text);
    return content;
  }

  /**
   * The ACP tool kind for a tool name, by what the name says (the drivers' names: {@code Bash},
   * {@code Read}, {@code Edit}, {@code apply_patch}, {@code shell}, {@code browse}, …); {@code other} when
   * it says nothing known.
   */
  static String kind(String tool) {
    String name = tool.toLowerCase(Locale.ROOT);
    if (name.equals("think") || name.contains("thought")) {
      return "think";
    }
    if (name.contains("bash") || name.contains("shell") || name.contains("exec") || name.contains("command") || name.equals("run") || name.contains("terminal")) {
      return "execute";
    }
    if (name.contains("delete") || name.contains("remove") || name.equals("rm")) {
      return "delete";
    }
    if (name.contains("move") || name.contains("rename")) {
      return "move";
    }
    if (name.contains("edit") || name.contains("write") || name.contains("patch") || name.contains("replace") || name.contains("create_file")) {
      return "edit";
    }
    if (name.contains("grep") || name.contains("glob") || name.contains("search") || name.contains("find") || name.equals("ls") || name.contains("list")) {
      return "search";
    }
    if (name.contains("fetch") || name.contains("browse") || name.contains("web") || name.contains("http")) {
      return "fetch";
    }
    if (name.contains("read") || name.contains("view") || name.contains("cat") || name.contains("get")) {
      return "read";
    }
    return "other";
  }

  /** A short title: the tool and the most telling part of its input (a command, a path, a query). */
  static String title(String tool, JsonNode input) {
    if (input != null && input.isObject()) {
      for (String field : new String[] {"command", "cmd", "file_path", "path", "pattern", "query", "url"}) {
        JsonNode value = input.get(field);
        if (value != null && value.isTextual() && !value.asText().isBlank()) {
          String text = value.asText().strip();
          return tool + ": " + (text.length() > 120 ? text.substring(0, 120) + "…" : text);
        }
      }
    }
    return tool;
  }

  /**
   * {@code session/request_permission} params for a pending decision, or empty when it cannot be one (a
   * question without options needs free text, which a permission prompt cannot carry).
   *
   * <p>Option ids are the hub's answers, so the chosen one is sent to {@code decision_answer} as is.
   */
  static Optional<ObjectNode> permissionRequest(String sessionId, JsonNode decision) {
    ArrayNode options = Json.mapper().createArrayNode();
    for (JsonNode option : decision.path("options")) {
      String answer = option.asText();
      ObjectNode entry = options.addObject();
      entry.put("optionId", answer);
      switch (answer) {
        case "allow_once" -> entry.put("name", "Allow once").put("kind", "allow_once");
        case "allow_always" -> entry.put("name", "Always allow").put("kind", "allow_always");
        case "deny" -> entry.put("name", "Deny").put("kind", "reject_once");
        case "adopt" -> entry.put("name", "Adopt the changed settings").put("kind", "allow_once");
        case "decline" -> entry.put("name", "Decline (the turn does not run)").put("kind", "reject_once");
        case "approve" -> entry.put("name", "Approve").put("kind", "allow_once"); // a calendar proposal
        case "reject" -> entry.put("name", "Reject").put("kind", "reject_once");
        default -> entry.put("name", answer).put("kind", "allow_once"); // a question's option
      }
    }
    if (options.isEmpty()) {
      return Optional.empty();
    }
    JsonNode request = decision.path("request");
    long id = decision.path("id").asLong();
    String kind = decision.path("kind").asText("permission");
    ObjectNode toolCall = Json.mapper().createObjectNode();
    String callId = request.path("call_id").asText("");
    toolCall.put("toolCallId", callId.isEmpty() ? "decision-" + id : callId);
    String title = decision.path("title").asText("Roundhouse needs your decision");
    String message = decision.path("message").asText("");
    toolCall.put("title", title);
    if (kind.equals("permission")) {
      toolCall.put("kind", kind(request.path("tool").asText("")));
      if (request.hasNonNull("input")) {
        toolCall.set("rawInput", request.get("input"));
      }
    } else {
      toolCall.put("kind", kind.equals("settings_drift") ? "switch_mode" : "other");
      if (!request.isMissingNode() && !request.isNull()) {
        toolCall.set("rawInput", request); // a calendar proposal's change (before/after), for a client to render
      }
    }
    if (!message.isBlank() && !message.equals(title)) {
      toolCall.set("content", textContent(message));
    }
    ObjectNode params = Json.mapper().createObjectNode();
    params.put("sessionId", sessionId);
    params.set("toolCall", toolCall);
    params.set("options", options);
    ObjectNode meta = params.putObject("_meta").putObject("roundhouse");
    meta.put("decision", id);
    meta.put("kind", kind);
    return Optional.of(params);
  }
}
