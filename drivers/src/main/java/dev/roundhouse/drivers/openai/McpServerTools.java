package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.process.ProcessLauncher;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tools of the MCP servers a face gave one turn ({@code TurnRequest#mcpServers}: an ACP client's), for
 * the OpenAI-compatible driver, which is its own MCP client (the MCP Java SDK's sync client). A stdio server
 * is started through the turn's process launcher, in the turn's folder, with the hub's environment minus the
 * endpoint's key (as a command's, see {@link CommandRunner}), the turn's variables and its own {@code env}; an HTTP server is reached with its {@code headers}. The model sees each tool as {@code
 * mcp__<server>__<tool>} (the name Claude Code gives it too); every call asks the hub's permission gate first,
 * like any other tool. A server that cannot be reached is left out with a warning that names it (never its
 * env or headers), and the turn goes on.
 *
 * <p>Not thread-safe: built, called and closed on the turn's chat-loop thread.
 */
final class McpServerTools implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(McpServerTools.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private record Entry(McpSyncClient client, String server, McpSchema.Tool tool) {}

  private final Map<String, Entry> tools = new LinkedHashMap<>();
  private final List<McpSyncClient> clients = new ArrayList<>();
  private final Function<PermissionRequest, PermissionVerdict> gate;

  private McpServerTools(Function<PermissionRequest, PermissionVerdict> gate) {
    this.gate = gate;
  }

  /** No servers: offers nothing. */
  static McpServerTools none() {
    return new McpServerTools(request -> PermissionVerdict.deny("no MCP servers"));
  }

  /**
   * Connects to every server and lists its tools.
   *
   * @param environment the turn's variables for a stdio server (each server's {@code env} over them)
   * @param hidden variables left out of a stdio server's environment (those naming the endpoint's key)
   * @param key the endpoint's key, or null: a variable whose value holds it is left out as well
   */
  static McpServerTools connect(List<McpServerSpec> servers, Path workingDirectory, Map<String, String> environment,
      Set<String> hidden, Secret key, ProcessLauncher processes, Function<PermissionRequest, PermissionVerdict> gate) {
    McpServerTools connected = new McpServerTools(gate);
    for (McpServerSpec spec : servers) {
      McpSyncClient client = null;
      try {
        client = McpClient.sync(transport(spec, workingDirectory, environment, hidden, key, processes))
            .clientInfo(McpSchema.Implementation.builder("roundhouse", "1").build())
            .requestTimeout(TIMEOUT)
            .initializationTimeout(TIMEOUT)
            // the SDK's default validator needs a newer json-schema-validator than the hub ships; the server checks its input
            .jsonSchemaValidator((schema, content) -> JsonSchemaValidator.ValidationResponse.asValid(null))
            .build();
        connected.clients.add(client);
        client.initialize();
        String cursor = null;
        do {
          McpSchema.ListToolsResult page = cursor == null ? client.listTools() : client.listTools(cursor);
          for (McpSchema.Tool tool : page.tools()) {
            connected.tools.putIfAbsent(toolName(spec.name(), tool.name()), new Entry(client, spec.name(), tool));
          }
          cursor = page.nextCursor();
        } while (cursor != null && !cursor.isEmpty());
      } catch (IOException | RuntimeException e) {
        LOG.warn("MCP server '{}' ({}) is left out of the turn: {}", spec.name(), spec.transport(), e.getMessage());
      }
    }
    return connected;
  }

  private static McpClientTransport transport(McpServerSpec spec, Path workingDirectory, Map<String, String> environment,
      Set<String> hidden, Secret key, ProcessLauncher processes) throws IOException {
    if (spec.transport().equals("http")) {
      URI url = URI.create(spec.url());
      String base = url.getScheme() + "://" + url.getRawAuthority();
      String endpoint = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
          + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
      HttpRequest.Builder request = HttpRequest.newBuilder();
      spec.headers().forEach(request::header);
      return HttpClientStreamableHttpTransport.builder(base).endpoint(endpoint).requestBuilder(request)
          .connectTimeout(Duration.ofSeconds(10)).build();
    }
    List<String> command = new ArrayList<>();
    command.add(spec.command());
    command.addAll(spec.args());
    ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    Map<String, String> env = builder.environment();
    env.putAll(environment);
    env.keySet().removeAll(hidden);
    if (key != null) {
      env.values().removeIf(key::occursIn);
    }
    env.putAll(spec.env());
    return new ProcessStdioTransport(spec.name(), processes.start(builder), McpJsonDefaults.getMapper());
  }

  /** {@code mcp__<server>__<tool>}, cut to what model APIs accept ({@code [a-zA-Z0-9_-]{1,64}}). */
  static String toolName(String server, String tool) {
    String name = ("mcp__" + server + "__" + tool).replaceAll("[^a-zA-Z0-9_-]", "_");
    return name.length() > 64 ? name.substring(0, 64) : name;
  }

  List<String> names() {
    return List.copyOf(tools.keySet());
  }

  boolean has(String name) {
    return tools.containsKey(name);
  }

  /** Adds every tool to a chat completion request's {@code tools}. */
  void addDefinitions(ArrayNode definitions) {
    tools.forEach((name, entry) -> {
      ObjectNode function = definitions.addObject().put("type", "function").putObject("function");
      function.put("name", name);
      String description = entry.tool().description() == null ? entry.tool().name() : entry.tool().description();
      function.put("description", description + " (tool " + entry.tool().name() + " of MCP server " + entry.server() + ")");
      ObjectNode schema = entry.tool().inputSchema() == null ? Json.mapper().createObjectNode() : Json.mapper().valueToTree(entry.tool().inputSchema());
      schema.remove("$schema");
      if (!schema.has("type")) {
        schema.put("type", "object");
      }
      function.set("parameters", schema);
    });
  }

  /** Asks the gate, then calls the tool on its server; every failure comes back as an error outcome. */
  ToolOutcome call(String callId, String name, ObjectNode arguments) {
    Entry entry = tools.get(name);
    PermissionVerdict verdict = gate.apply(new PermissionRequest(callId, name, arguments,
        "Call " + entry.tool().name() + " of MCP server " + entry.server(), null));
    if (!verdict.allowed()) {
      return ToolOutcome.denied(name, verdict.reason());
    }
    try {
      Map<String, Object> input = Json.mapper().convertValue(arguments, new TypeReference<Map<String, Object>>() {});
      McpSchema.CallToolResult result = entry.client().callTool(McpSchema.CallToolRequest.builder(entry.tool().name()).arguments(input).build());
      String text = text(result);
      return Boolean.TRUE.equals(result.isError()) ? ToolOutcome.error(text) : ToolOutcome.ok(text);
    } catch (RuntimeException e) {
      return ToolOutcome.error(name + " failed: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }
  }

  private static String text(McpSchema.CallToolResult result) {
    List<String> parts = new ArrayList<>();
    for (McpSchema.Content content : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
      if (content instanceof McpSchema.TextContent text) {
        parts.add(text.text());
      } else {
        parts.add("[" + content.type() + " content]");
      }
    }
    if (parts.isEmpty() && result.structuredContent() != null) {
      JsonNode structured = Json.mapper().valueToTree(result.structuredContent());
      parts.add(Json.write(structured));
    }
    return parts.isEmpty() ? "(done; no output)" : String.join("\n", parts);
  }

  /** Ends every session (a stdio server's stdin is closed; the turn's launcher ends what is left). */
  @Override
  public void close() {
    for (McpSyncClient client : clients) {
      try {
        client.closeGracefully();
      } catch (RuntimeException e) {
        client.close();
      }
    }
  }
}
