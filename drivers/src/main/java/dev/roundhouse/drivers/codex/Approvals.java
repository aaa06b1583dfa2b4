package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Answers the app-server's requests to the client. Every approval it can ask for becomes a question to the
 * hub's permission gate ({@link TurnContext#requestPermission}), and the gate's verdict goes back in the
 * shape that request expects:
 *
 * <ul>
 *   <li>{@code item/commandExecution/requestApproval} (tool {@value ItemEvents#SHELL}, the script as the
 *       command) and {@code item/fileChange/requestApproval} (tool {@value ItemEvents#APPLY_PATCH}): {@code
 *       accept} or {@code decline};
 *   <li>{@code item/permissions/requestApproval} (tool {@code permissions}): the requested permissions for
 *       the turn, or none;
 *   <li>{@code mcpServer/elicitation/request} for an MCP tool call: {@code accept} or {@code decline}; other
 *       elicitations (forms an MCP server shows) are declined;
 *   <li>{@code execCommandApproval} and {@code applyPatchApproval} (the older protocol): {@code approved} or
 *       {@code denied};
 *   <li>{@code item/tool/requestUserInput}: each question goes to the user through {@link TurnContext#ask}.
 * </ul>
 *
 * Anything else is answered with a JSON-RPC error, so the server never waits for an answer that will not
 * come. Not thread-safe: the turn's thread calls it.
 */
final class Approvals {
  private final TurnContext context;
  private final ItemEvents items;

  Approvals(TurnContext context, ItemEvents items) {
    this.context = context;
    this.items = items;
  }

  /** Decides {@code request} and sends the answer. Blocks while a human decides. */
  void answer(AppServer server, AppServer.Incoming request) {
    JsonNode id = request.message().path("id");
    JsonNode params = request.params();
    switch (request.method()) {
      case "item/commandExecution/requestApproval" ->
          server.respond(id, decision(command(params.path("itemId").asText(), params), "accept", "decline"));
      case "item/fileChange/requestApproval" ->
          server.respond(id, decision(fileChange(params.path("itemId").asText(), params), "accept", "decline"));
      case "execCommandApproval" -> server.respond(id, legacyDecision(command(params.path("callId").asText(), legacyCommand(params))));
      case "applyPatchApproval" -> server.respond(id, legacyDecision(legacyPatch(params)));
      case "item/permissions/requestApproval" -> server.respond(id, permissions(params));
      case "mcpServer/elicitation/request" -> server.respond(id, elicitation(params));
      case "item/tool/requestUserInput" -> server.respond(id, userInput(params));
      case "item/tool/call" -> {
        ObjectNode result = Json.mapper().createObjectNode();
        result.putArray("contentItems");
        result.put("success", false);
        server.respond(id, result);
      }
      default -> server.respondError(id, -32601, "roundhouse does not handle " + request.method());
    }
  }

  private PermissionRequest command(String callId, JsonNode params) {
    String script = ShellCommands.scriptOf(params);
    ObjectNode input = Json.mapper().createObjectNode();
    input.put("command", script);
    if (params.hasNonNull("cwd")) {
      input.put("cwd", params.path("cwd").asText());
    }
    String reason = params.path("reason").asText(null);
    JsonNode network = params.path("networkApprovalContext");
    String description = network.isObject() && !network.isEmpty()
        ? "Allow network access for: " + script + " (" + Json.write(network) + ")"
        : "Run: " + script + (reason == null ? "" : " (" + reason + ")");
    return new PermissionRequest(callId, ItemEvents.SHELL, input, description, script);
  }

  private PermissionRequest fileChange(String itemId, JsonNode params) {
    JsonNode item = items.startedItem(itemId);
    ObjectNode input = Json.mapper().createObjectNode();
    var changes = input.putArray("changes");
    List<String> what = new ArrayList<>();
    if (item != null) {
      item.path("changes").forEach(change -> {
        String kind = change.path("kind").path("type").asText("update");
        changes.addObject().put("path", change.path("path").asText()).put("kind", kind).put("diff", change.path("diff").asText(""));
        what.add(kind + " " + change.path("path").asText());
      });
    }
    if (params.hasNonNull("grantRoot")) {
      input.put("grant_root", params.path("grantRoot").asText());
      what.add("write access under " + params.path("grantRoot").asText());
    }
    String reason = params.path("reason").asText(null);
    String description = "Edit files: " + (what.isEmpty() ? "(not described)" : String.join(", ", what)) + (reason == null ? "" : " (" + reason + ")");
    return new PermissionRequest(itemId, ItemEvents.APPLY_PATCH, input, description, null);
  }

  private JsonNode decision(PermissionRequest request, String yes, String no) {
    PermissionVerdict verdict = context.requestPermission(request);
    return Json.mapper().createObjectNode().put("decision", verdict.allowed() ? yes : no);
  }

  private JsonNode legacyDecision(PermissionRequest request) {
    PermissionVerdict verdict = context.requestPermission(request);
    ObjectNode result = Json.mapper().createObjectNode();
    if (verdict.allowed()) {
      result.put("decision", "approved");
    } else {
      result.putObject("decision").putObject("denied").put("rejection", verdict.reason());
    }
    return result;
  }

  private static JsonNode legacyCommand(JsonNode params) {
    ObjectNode shaped = Json.mapper().createObjectNode();
    shaped.set("proposedExecpolicyAmendment", params.path("command"));
    List<String> argv = new ArrayList<>();
    params.path("command").forEach(word -> argv.add(word.asText()));
    shaped.put("command", String.join(" ", argv));
    shaped.set("cwd", params.path("cwd"));
    shaped.set("reason", params.path("reason"));
    return shaped;
  }

  private static PermissionRequest legacyPatch(JsonNode params) {
    ObjectNode input = Json.mapper().createObjectNode();
    input.set("changes", params.path("fileChanges"));
    List<String> paths = new ArrayList<>();
    params.path("fileChanges").fieldNames().forEachRemaining(paths::add);
    return new PermissionRequest(params.path("callId").asText(), ItemEvents.APPLY_PATCH, input, "Edit files: " + String.join(", ", paths), null);
  }

  private JsonNode permissions(JsonNode params) {
    JsonNode wanted = params.path("permissions");
    String reason = params.path("reason").asText(null);
    PermissionVerdict verdict = context.requestPermission(new PermissionRequest(
        params.path("itemId").asText(), "permissions", wanted,
        "Grant more permissions for this turn: " + Json.write(wanted) + (reason == null ? "" : " (" + reason + ")"), null));
    ObjectNode result = Json.mapper().createObjectNode();
    if (verdict.allowed()) {
      result.set("permissions", wanted);
      result.put("scope", "turn");
    } else {
      result.putObject("permissions");
    }
    return result;
  }

  private JsonNode elicitation(JsonNode params) {
    JsonNode meta = params.path("_meta");
    ObjectNode result = Json.mapper().createObjectNode();
    if (!meta.path("codex_approval_kind").asText().equals("mcp_tool_call")) {
      return result.put("action", "decline"); // a form from an MCP server: no face renders those yet
    }
    String tool = items.mcpToolName(params.path("serverName").asText(), meta.path("tool_name").asText());
    JsonNode input = meta.path("tool_params").isMissingNode() ? Json.mapper().createObjectNode() : meta.path("tool_params");
    String callId = items.pendingCallOf(tool).orElse(null);
    PermissionVerdict verdict = context.requestPermission(
        new PermissionRequest(callId, tool, input, params.path("message").asText("Use " + tool), null));
    if (verdict.allowed()) {
      result.put("action", "accept");
      result.putObject("content");
    } else {
      result.put("action", "decline");
    }
    return result;
  }

  private JsonNode userInput(JsonNode params) {
    ObjectNode answers = Json.mapper().createObjectNode();
    for (JsonNode question : params.path("questions")) {
      List<String> options = new ArrayList<>();
      question.path("options").forEach(option -> options.add(option.path("label").asText()));
      Optional<String> answer = context.ask(question.path("question").asText(question.path("header").asText()), options);
      var list = answers.putObject(question.path("id").asText()).putArray("answers");
      answer.ifPresent(list::add);
    }
    return Json.mapper().createObjectNode().set("answers", answers);
  }

  /** The server requests answered with a decision or an answer (the rest get an error). */
  static final Set<String> HANDLED = Set.of(
      "item/commandExecution/requestApproval", "item/fileChange/requestApproval", "item/permissions/requestApproval",
      "mcpServer/elicitation/request", "execCommandApproval", "applyPatchApproval", "item/tool/requestUserInput",
      "item/tool/call");

  /** Server requests about a ChatGPT login or attestation, which a hub cannot serve: answered with an error. */
  static final Set<String> NOT_SUPPORTED = Set.of("account/chatgptAuthTokens/refresh", "attestation/generate");
}
