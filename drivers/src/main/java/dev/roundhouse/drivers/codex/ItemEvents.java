package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.TurnEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Maps the app-server's notifications for one thread onto the turn-event contract:
 *
 * <ul>
 *   <li>{@code item/agentMessage/delta} → text delta; a completed {@code agentMessage} item → assistant message;
 *   <li>{@code commandExecution} items → tool call {@value #SHELL} (started), tool output deltas ({@code
 *       item/commandExecution/outputDelta}), tool result (completed; an error when it failed, was declined or
 *       exited non-zero);
 *   <li>{@code fileChange} items → tool call {@value #APPLY_PATCH} and its result; {@code mcpToolCall} items →
 *       a call of the MCP tool ({@code mcp__<server>__<tool>}, or the bare name for the hub's own server) and
 *       its result;
 *   <li>{@code thread/tokenUsage/updated} → usage of the model call it reports, with a cost estimated from the
 *       {@link PriceTable}; when it names the model's context window ({@code modelContextWindow}), the context
 *       fields too: the call's input tokens ({@code last.inputTokens}, the whole conversation so far) of that
 *       window;
 *   <li>a completed {@code reasoning} item → a thought: its summary parts, else its raw reasoning text;
 *   <li>{@code turn/plan/updated} (Codex's {@code update_plan} tool) → the plan, its steps as entries ({@code
 *       inProgress} is {@code in_progress}).
 * </ul>
 *
 * <p>Not thread-safe: one turn's thread feeds it.
 */
final class ItemEvents {
  static final String SHELL = "shell";
  static final String APPLY_PATCH = "apply_patch";

  private final String hubServerName;
  private final PriceTable prices;
  private final Map<String, String> toolOfItem = new HashMap<>();
  private final Map<String, JsonNode> startedItems = new java.util.LinkedHashMap<>();
  private final Set<String> finished = new HashSet<>();
  private String model;
  private String turnId;
  private String lastMessage = "";
  private long seenTotalTokens = -1;

  /**
   * @param hubServerName the name the hub's MCP server has in the thread's config, whose tools keep their
   *     bare names (as the hub's gate knows them)
   */
  ItemEvents(String hubServerName, PriceTable prices) {
    this.hubServerName = hubServerName;
    this.prices = prices;
  }

  /** The model usage is priced for. */
  void model(String name) {
    this.model = name;
  }

  /** A new turn begins: only its notifications count from now on. */
  void turnStarted(String id) {
    this.turnId = id;
    this.lastMessage = "";
  }

  /** The text of the turn's last assistant message (for the result). */
  String lastMessage() {
    return lastMessage;
  }

  /** The item {@code itemId} as it started (an approval request refers to it), or null. */
  JsonNode startedItem(String itemId) {
    return startedItems.get(itemId);
  }

  /** The id of a started, unfinished call of {@code tool} (an MCP approval does not name its call). */
  Optional<String> pendingCallOf(String tool) {
    return startedItems.keySet().stream().filter(id -> tool.equals(toolOfItem.get(id))).reduce((first, second) -> second);
  }

  /** The events a notification maps to (often none). */
  List<TurnEvent> map(String method, JsonNode params) {
    List<TurnEvent> events = new ArrayList<>(2);
    switch (method) {
      case "item/agentMessage/delta" -> {
        String delta = params.path("delta").asText("");
        if (!delta.isEmpty()) {
          events.add(new TurnEvent.TextDelta(delta));
        }
      }
      case "item/commandExecution/outputDelta", "item/fileChange/outputDelta" -> {
        String delta = params.path("delta").asText("");
        if (!delta.isEmpty()) {
          events.add(new TurnEvent.ToolOutputDelta(params.path("itemId").asText(), delta));
        }
      }
      case "item/started" -> started(params.path("item"), events);
      case "item/completed" -> completed(params.path("item"), events);
      case "thread/tokenUsage/updated" -> usage(params, events);
      case "turn/plan/updated" -> plan(params, events);
      default -> {
        // other notifications carry nothing for the transcript
      }
    }
    return events;
  }

  private void started(JsonNode item, List<TurnEvent> events) {
    String id = item.path("id").asText();
    String tool = toolName(item);
    if (tool == null || toolOfItem.containsKey(id)) {
      return;
    }
    toolOfItem.put(id, tool);
    startedItems.put(id, item);
    events.add(new TurnEvent.ToolCall(id, tool, toolInput(item)));
  }

  private void completed(JsonNode item, List<TurnEvent> events) {
    String id = item.path("id").asText();
    String type = item.path("type").asText();
    if (type.equals("reasoning")) {
      String thought = reasoningText(item);
      if (!thought.isBlank()) {
        events.add(new TurnEvent.Thought(thought));
      }
      return;
    }
    if (type.equals("agentMessage")) {
      String text = item.path("text").asText("");
      if (!text.isEmpty()) {
        lastMessage = text;
        events.add(new TurnEvent.AssistantMessage(text));
      }
      return;
    }
    if (toolName(item) == null || !finished.add(id)) {
      return;
    }
    started(item, events);
    startedItems.remove(id);
    String status = item.path("status").asText("");
    switch (type) {
      case "commandExecution" -> {
        String output = item.path("aggregatedOutput").asText("");
        JsonNode exit = item.path("exitCode");
        boolean failed = !status.equals("completed") || exit.isInt() && exit.asInt() != 0;
        String summary = status.equals("declined") ? "declined: the command did not run"
            : exit.isInt() && exit.asInt() != 0 ? output + (output.isEmpty() || output.endsWith("\n") ? "" : "\n") + "exit code " + exit.asInt()
            : output;
        events.add(new TurnEvent.ToolResult(id, summary, failed));
      }
      case "fileChange" -> {
        List<String> changes = new ArrayList<>();
        item.path("changes").forEach(change -> changes.add(change.path("kind").path("type").asText("update") + " " + change.path("path").asText()));
        String what = String.join(", ", changes);
        String summary = switch (status) {
          case "completed" -> "applied: " + what;
          case "declined" -> "declined: no file was changed (" + what + ")";
          default -> "failed to apply: " + what;
        };
        events.add(new TurnEvent.ToolResult(id, summary, !status.equals("completed")));
      }
      case "mcpToolCall" -> {
        boolean failed = !status.equals("completed");
        String output = failed ? item.path("error").path("message").asText("failed") : mcpText(item.path("result"));
        events.add(new TurnEvent.ToolResult(id, output, failed));
      }
      default -> {
        // no other item is reported as a tool
      }
    }
  }

  private void usage(JsonNode params, List<TurnEvent> events) {
    if (turnId != null && !turnId.equals(params.path("turnId").asText())) {
      return;
    }
    JsonNode usage = params.path("tokenUsage");
    long total = usage.path("total").path("totalTokens").asLong(0);
    if (total <= seenTotalTokens) {
      return; // a repeat, not a new model call
    }
    seenTotalTokens = total;
    JsonNode last = usage.path("last");
    long input = last.path("inputTokens").asLong(0);
    long cached = last.path("cachedInputTokens").asLong(0);
    long output = last.path("outputTokens").asLong(0);
    Double cost = prices.cost(model, input, cached, output).orElse(null);
    JsonNode window = usage.path("modelContextWindow");
    boolean known = window.isNumber() && window.asLong() > 0;
    events.add(new TurnEvent.Usage(input, output, cost, cost != null, known ? input : null, known ? window.asLong() : null));
  }

  private void plan(JsonNode params, List<TurnEvent> events) {
    if (turnId != null && !turnId.equals(params.path("turnId").asText())) {
      return;
    }
    List<TurnEvent.PlanEntry> entries = new ArrayList<>();
    for (JsonNode step : params.path("plan")) {
      String content = step.path("step").asText("");
      if (!content.isBlank()) {
        entries.add(new TurnEvent.PlanEntry(content, planStatus(step.path("status").asText("")), null));
      }
    }
    events.add(new TurnEvent.Plan(entries));
  }

  /** The contract's status for a Codex plan step's ({@code pending}, {@code inProgress}, {@code completed}). */
  private static String planStatus(String status) {
    return switch (status) {
      case "inProgress", "in_progress" -> "in_progress";
      case "completed" -> "completed";
      default -> "pending";
    };
  }

  /** A reasoning item's summary parts (what Codex shows of its reasoning), else its raw reasoning text. */
  private static String reasoningText(JsonNode item) {
    List<String> parts = new ArrayList<>();
    item.path("summary").forEach(part -> addText(parts, part));
    if (parts.isEmpty()) {
      item.path("content").forEach(part -> addText(parts, part));
    }
    return String.join("\n\n", parts);
  }

  private static void addText(List<String> parts, JsonNode part) {
    String text = part.isTextual() ? part.asText() : part.path("text").asText("");
    if (!text.isBlank()) {
      parts.add(text.strip());
    }
  }

  private String toolName(JsonNode item) {
    return switch (item.path("type").asText()) {
      case "commandExecution" -> SHELL;
      case "fileChange" -> APPLY_PATCH;
      case "mcpToolCall" -> mcpToolName(item.path("server").asText(), item.path("tool").asText());
      default -> null;
    };
  }

  /** The name an MCP tool is reported and gated under. */
  String mcpToolName(String server, String tool) {
    return server.equals(hubServerName) ? tool : "mcp__" + server + "__" + tool;
  }

  private static JsonNode toolInput(JsonNode item) {
    ObjectNode input = Json.mapper().createObjectNode();
    switch (item.path("type").asText()) {
      case "commandExecution" -> {
        input.put("command", ShellCommands.script(item.path("command").asText()));
        input.put("cwd", item.path("cwd").asText());
      }
      case "fileChange" -> {
        var changes = input.putArray("changes");
        item.path("changes").forEach(change -> changes.addObject()
            .put("path", change.path("path").asText())
            .put("kind", change.path("kind").path("type").asText("update"))
            .put("diff", change.path("diff").asText("")));
      }
      default -> {
        JsonNode arguments = item.path("arguments");
        return arguments.isMissingNode() || arguments.isNull() ? input : arguments;
      }
    }
    return input;
  }

  private static String mcpText(JsonNode result) {
    List<String> texts = new ArrayList<>();
    result.path("content").forEach(block -> {
      if (block.path("type").asText().equals("text")) {
        texts.add(block.path("text").asText());
      }
    });
    if (texts.isEmpty() && result.has("structuredContent") && !result.path("structuredContent").isNull()) {
      return Json.write(result.path("structuredContent"));
    }
    return String.join("\n", texts);
  }
}
