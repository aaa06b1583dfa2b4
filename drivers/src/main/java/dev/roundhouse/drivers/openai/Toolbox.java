package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every tool the model is offered for one turn: the workspace tools (for a coding task only), then the hub
 * operations the context grants this task's agent (same names, same input schemas, called through {@link
 * TurnContext#callTool}), then the tools of the MCP servers a face gave the turn ({@link McpServerTools}). A hub
 * operation whose name a workspace tool already uses, or that model APIs would refuse, is left out.
 *
 * <p>Immutable after construction; calls run on the chat loop's thread.
 */
final class Toolbox {
  private static final Logger LOG = LoggerFactory.getLogger(Toolbox.class);
  private static final Pattern TOOL_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

  /** Null when the turn is not coding work: then only the hub's operations are offered. */
  private final WorkspaceTools workspace;
  private final TurnContext context;
  private final Map<String, OperationDescriptor> operations = new LinkedHashMap<>();
  private final McpServerTools servers;

  /** A coding task's tools: the workspace's, the hub's and those of the turn's MCP servers. */
  Toolbox(WorkspaceTools workspace, TurnContext context, McpServerTools servers) {
    this(context, java.util.Objects.requireNonNull(workspace, "workspace"), servers);
  }

  /** The tools of a turn that is not coding work: the hub's operations and those of the turn's MCP servers. */
  static Toolbox hubOnly(TurnContext context, McpServerTools servers) {
    return new Toolbox(context, null, servers);
  }

  private Toolbox(TurnContext context, WorkspaceTools workspace, McpServerTools servers) {
    this.workspace = workspace;
    this.context = context;
    this.servers = servers;
    for (OperationDescriptor operation : context.tools()) {
      if ((workspace != null && WorkspaceTools.NAMES.contains(operation.name())) || !TOOL_NAME.matcher(operation.name()).matches()) {
        LOG.warn("hub operation '{}' is not offered to the model: its name is taken or not a valid tool name", operation.name());
        continue;
      }
      operations.putIfAbsent(operation.name(), operation);
    }
  }

  /** The {@code tools} array of a chat completion request. */
  ArrayNode definitions() {
    ArrayNode tools = workspace != null ? workspace.definitions() : Json.mapper().createArrayNode();
    for (OperationDescriptor operation : operations.values()) {
      ObjectNode tool = tools.addObject();
      tool.put("type", "function");
      ObjectNode function = tool.putObject("function");
      function.put("name", operation.name());
      function.put("description", operation.description() == null ? operation.name() : operation.description());
      function.set("parameters", parameters(operation.inputSchema()));
    }
    servers.addDefinitions(tools);
    return tools;
  }

  /** Every tool name, workspace tools (if any) first. */
  List<String> names() {
    List<String> names = new ArrayList<>();
    if (workspace != null) {
      names.addAll(List.of(
          WorkspaceTools.READ_FILE, WorkspaceTools.LIST_FILES, WorkspaceTools.SEARCH,
          WorkspaceTools.WRITE_FILE, WorkspaceTools.EDIT_FILE, WorkspaceTools.RUN_COMMAND));
    }
    names.addAll(operations.keySet());
    names.addAll(servers.names());
    return names;
  }

  /**
   * Runs one tool call; every failure comes back as an error outcome for the model.
   *
   * @throws TurnStoppedException when the turn was stopped meanwhile
   */
  ToolOutcome call(String callId, String name, ObjectNode arguments, Consumer<String> output) throws InterruptedException {
    if (workspace != null && WorkspaceTools.NAMES.contains(name)) {
      return workspace.call(callId, name, arguments, output);
    }
    if (servers.has(name) && !operations.containsKey(name)) {
      return servers.call(callId, name, arguments);
    }
    if (!operations.containsKey(name)) {
      return ToolOutcome.error("there is no tool named '" + name + "'; the tools are: " + String.join(", ", names()));
    }
    try {
      JsonNode result = context.callTool(name, arguments);
      return ToolOutcome.ok(result == null || result.isNull() ? "(done; no output)" : Json.write(result));
    } catch (TurnStoppedException e) {
      throw e;
    } catch (RoundhouseException e) {
      return ToolOutcome.error(name + " failed: " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.warn("hub operation {} failed unexpectedly", name, e);
      return ToolOutcome.error(name + " failed: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }
  }

  /** The operation's input schema as function parameters; an object schema even when the operation takes none. */
  private static JsonNode parameters(JsonNode schema) {
    if (schema == null || !schema.isObject()) {
      ObjectNode empty = Json.mapper().createObjectNode();
      empty.put("type", "object");
      empty.putObject("properties");
      return empty;
    }
    ObjectNode copy = schema.deepCopy();
    // Some providers refuse the meta-schema keywords; they carry nothing the model needs.
    copy.remove("$schema");
    copy.remove("$id");
    if (!copy.has("type")) {
      copy.put("type", "object");
    }
    return copy;
  }
}
