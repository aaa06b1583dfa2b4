package dev.roundhouse.lspbridge.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.agentclientprotocol.sdk.spec.AcpSchema.PermissionOptionKind;
import com.agentclientprotocol.sdk.spec.AcpSchema.SessionUpdate;
import com.agentclientprotocol.sdk.spec.AcpSchema.ToolCallStatus;
import com.agentclientprotocol.sdk.spec.AcpSchema.ToolKind;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns the hub's task events into ACP {@code session/update} payloads and decisions into
 * {@code session/request_permission} params, as the ACP SDK's schema records ({@link AcpSchema}). Pure
 * functions; stateless and thread-safe.
 */
final class AcpUpdates {
  private AcpUpdates() {}

  static final String USER_MESSAGE = "user_message_chunk";
  static final String AGENT_MESSAGE = "agent_message_chunk";
  static final String AGENT_THOUGHT = "agent_thought_chunk";

  /** {@code agent_message_chunk} (or {@code user_message_chunk}, {@code agent_thought_chunk}) with text. */
  static SessionUpdate chunk(String kind, String text) {
    AcpSchema.TextContent content = new AcpSchema.TextContent(text);
    return switch (kind) {
      case USER_MESSAGE -> new AcpSchema.UserMessageChunk(kind, content);
      case AGENT_THOUGHT -> new AcpSchema.AgentThoughtChunk(kind, content);
      case AGENT_MESSAGE -> new AcpSchema.AgentMessageChunk(kind, content);
      default -> throw new IllegalArgumentException("not a chunk kind: " + kind);
    };
  }

  /**
   * What the hub notes in a transcript without it being the agent's words (an unattended run's refused question or
   * settings drift, a trimmed context, a pruned transcript), as an {@code agent_thought_chunk}; empty for any other
   * event type. ACP has no notice of its own; a thought is shown apart from the answer by every client.
   */
  static java.util.Optional<SessionUpdate> notice(String type, JsonNode data) {
    String text = switch (type) {
      case "turn.question_refused" -> "Unattended run: the agent asked \"" + data.path("question").asText("")
          + "\" and no one is there to answer.";
      case "turn.drift_refused" -> {
        List<String> files = new java.util.ArrayList<>();
        data.path("files").forEach(file -> files.add(file.asText()));
        yield "Unattended run: the agent's settings changed (" + String.join(", ", files) + "); the run was refused.";
      }
      case "turn.context_trimmed", "turn.endpoint_silent" -> data.path("text").asText("");
      case "task.pruned" -> "The retention policy pruned " + data.path("events").asLong() + " earlier events of this task.";
      default -> null;
    };
    return text == null || text.isBlank() ? java.util.Optional.empty() : java.util.Optional.of(chunk(AGENT_THOUGHT, text));
  }

  /**
   * {@code usage_update}: how much of the context window the conversation fills, and what this prompt's
   * turn has cost so far (null: no cost reported).
   */
  static SessionUpdate usage(long used, long size, Double costUsd) {
    return new AcpSchema.UsageUpdate("usage_update", used, size, costUsd == null ? null : new AcpSchema.Cost(costUsd, "USD"), null);
  }

  /**
   * {@code plan} for a {@code turn.plan} event's data: the whole list, as ACP replaces it each time. A status
   * or priority ACP does not know reads as {@code pending} or {@code medium} (the defaults).
   */
  static SessionUpdate plan(JsonNode data) {
    List<AcpSchema.PlanEntry> entries = new ArrayList<>();
    for (JsonNode entry : data.path("entries")) {
      entries.add(new AcpSchema.PlanEntry(
          entry.path("content").asText(""),
          AcpJson.constant(AcpSchema.PlanEntryPriority.class, entry.path("priority").asText("medium"), AcpSchema.PlanEntryPriority.MEDIUM),
          AcpJson.constant(AcpSchema.PlanEntryStatus.class, entry.path("status").asText("pending"), AcpSchema.PlanEntryStatus.PENDING)));
    }
    return new AcpSchema.Plan("plan", entries);
  }

  /** {@code tool_call} for a {@code turn.tool_call} event's data. */
  static SessionUpdate toolCall(JsonNode data) {
    String tool = data.path("tool").asText("tool");
    JsonNode input = data.hasNonNull("input") ? data.get("input") : null;
    return new AcpSchema.ToolCall(
        "tool_call", data.path("call_id").asText(), title(tool, data.get("input")), kind(tool), ToolCallStatus.IN_PROGRESS, null, null, input, null, null);
  }

  /** {@code tool_call_update} carrying the output so far (ACP replaces the content with each update). */
  static SessionUpdate toolOutput(String callId, String outputSoFar) {
    return toolUpdate(callId, null, textContent(outputSoFar), null);
  }

  /** {@code tool_call_update} for a {@code turn.tool_result}: completed or failed, with the output. */
  static SessionUpdate toolResult(JsonNode data) {
    String output = data.path("output").asText("");
    ToolCallStatus status = data.path("is_error").asBoolean(false) ? ToolCallStatus.FAILED : ToolCallStatus.COMPLETED;
    return toolUpdate(data.path("call_id").asText(), status, output.isEmpty() ? null : textContent(output), output);
  }

  /** {@code tool_call_update} failed, for a {@code turn.permission_denied}. */
  static SessionUpdate toolDenied(JsonNode data) {
    return toolUpdate(data.path("call_id").asText(), ToolCallStatus.FAILED, textContent("Denied: " + data.path("reason").asText("permission denied")), null);
  }

  private static SessionUpdate toolUpdate(String callId, ToolCallStatus status, List<AcpSchema.ToolCallContent> content, String rawOutput) {
    return new AcpSchema.ToolCallUpdateNotification("tool_call_update", callId, null, null, status, content, null, null, rawOutput, null);
  }

  private static List<AcpSchema.ToolCallContent> textContent(String text) {
    return List.of(new AcpSchema.ToolCallContentBlock("content", new AcpSchema.TextContent(text)));
  }

  /**
   * The ACP tool kind for a tool name, by what the name says (the drivers' names: {@code Bash},
   * {@code Read}, {@code Edit}, {@code apply_patch}, {@code shell}, {@code browse}, …); {@code other} when
   * it says nothing known.
   */
  static ToolKind kind(String tool) {
    String name = tool.toLowerCase(Locale.ROOT);
    if (name.equals("think") || name.contains("thought")) {
      return ToolKind.THINK;
    }
    if (name.contains("bash") || name.contains("shell") || name.contains("exec") || name.contains("command") || name.equals("run") || name.contains("terminal")) {
      return ToolKind.EXECUTE;
    }
    if (name.contains("delete") || name.contains("remove") || name.equals("rm")) {
      return ToolKind.DELETE;
    }
    if (name.contains("move") || name.contains("rename")) {
      return ToolKind.MOVE;
    }
    if (name.contains("edit") || name.contains("write") || name.contains("patch") || name.contains("replace") || name.contains("create_file")) {
      return ToolKind.EDIT;
    }
    if (name.contains("grep") || name.contains("glob") || name.contains("search") || name.contains("find") || name.equals("ls") || name.contains("list")) {
      return ToolKind.SEARCH;
    }
    if (name.contains("fetch") || name.contains("browse") || name.contains("web") || name.contains("http")) {
      return ToolKind.FETCH;
    }
    if (name.contains("read") || name.contains("view") || name.contains("cat") || name.contains("get")) {
      return ToolKind.READ;
    }
    return ToolKind.OTHER;
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
   * <p>Option ids are the hub's answers, so the chosen one is sent to {@code decision_answer} as is. The
   * SDK's {@code RequestPermissionRequest} has no {@code _meta}; the decision's id and kind are added to its
   * JSON as {@code _meta.roundhouse}.
   */
  static Optional<ObjectNode> permissionRequest(String sessionId, JsonNode decision) {
    List<AcpSchema.PermissionOption> options = new ArrayList<>();
    for (JsonNode option : decision.path("options")) {
      String answer = option.asText();
      options.add(switch (answer) {
        case "allow_once" -> new AcpSchema.PermissionOption(answer, "Allow once", PermissionOptionKind.ALLOW_ONCE);
        case "allow" -> new AcpSchema.PermissionOption(answer, "Allow", PermissionOptionKind.ALLOW_ONCE); // an MCP sign-in's consent
        case "allow_always" -> new AcpSchema.PermissionOption(answer, "Always allow", PermissionOptionKind.ALLOW_ALWAYS);
        case "deny" -> new AcpSchema.PermissionOption(answer, "Deny", PermissionOptionKind.REJECT_ONCE);
        case "adopt" -> new AcpSchema.PermissionOption(answer, "Adopt the changed settings", PermissionOptionKind.ALLOW_ONCE);
        case "decline" -> new AcpSchema.PermissionOption(answer, "Decline (the turn does not run)", PermissionOptionKind.REJECT_ONCE);
        case "approve" -> new AcpSchema.PermissionOption(answer, "Approve", PermissionOptionKind.ALLOW_ONCE); // a calendar proposal
        case "reject" -> new AcpSchema.PermissionOption(answer, "Reject", PermissionOptionKind.REJECT_ONCE);
        default -> new AcpSchema.PermissionOption(answer, answer, PermissionOptionKind.ALLOW_ONCE); // a question's option
      });
    }
    if (options.isEmpty()) {
      return Optional.empty();
    }
    JsonNode request = decision.path("request");
    long id = decision.path("id").asLong();
    String kind = decision.path("kind").asText("permission");
    String callId = request.path("call_id").asText("");
    String title = decision.path("title").asText("Roundhouse needs your decision");
    String message = decision.path("message").asText("");
    ToolKind toolKind;
    JsonNode rawInput;
    if (kind.equals("permission")) {
      toolKind = kind(request.path("tool").asText(""));
      rawInput = request.hasNonNull("input") ? request.get("input") : null;
    } else {
      toolKind = kind.equals("settings_drift") ? ToolKind.SWITCH_MODE : ToolKind.OTHER;
      rawInput = request.isMissingNode() || request.isNull() ? null : request; // a calendar proposal's change (before/after), for a client to render
    }
    AcpSchema.ToolCallUpdate toolCall = new AcpSchema.ToolCallUpdate(
        callId.isEmpty() ? "decision-" + id : callId, title, toolKind, null,
        !message.isBlank() && !message.equals(title) ? textContent(message) : null, null, rawInput, null);
    ObjectNode params = (ObjectNode) AcpJson.tree(new AcpSchema.RequestPermissionRequest(sessionId, toolCall, options));
    ObjectNode meta = params.putObject("_meta").putObject("roundhouse");
    meta.put("decision", id);
    meta.put("kind", kind);
    return Optional.of(params);
  }
}
