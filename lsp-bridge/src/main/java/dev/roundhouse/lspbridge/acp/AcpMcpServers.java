package dev.roundhouse.lspbridge.acp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.McpServerSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code mcpServers} of {@code session/new} and {@code session/load} into the hub's {@link
 * McpServerSpec}s: stdio servers ({@code command}, {@code args}, {@code env}) and, as {@code initialize}
 * advertises ({@code mcpCapabilities.http}), HTTP servers ({@code url}, {@code headers}); SSE servers are
 * refused. The values of {@code env} and {@code headers} appear in no error message. Stateless.
 */
final class AcpMcpServers {
  private AcpMcpServers() {}

  /**
   * The servers of a session request; empty when it gives none.
   *
   * @throws AcpError invalid params naming the server and the field that is wrong
   */
  static List<McpServerSpec> of(JsonNode params, String method) {
    JsonNode servers = params.path("mcpServers");
    if (servers.isMissingNode() || servers.isNull()) {
      return List.of();
    }
    if (!servers.isArray()) {
      throw AcpError.invalidParams(method + ": params.mcpServers must be an array of MCP servers");
    }
    List<McpServerSpec> specs = new ArrayList<>();
    for (int i = 0; i < servers.size(); i++) {
      specs.add(server(servers.get(i), method + ": params.mcpServers[" + i + "]"));
    }
    try {
      return McpServerSpec.checked(specs);
    } catch (RoundhouseException e) {
      throw AcpError.invalidParams(method + ": " + e.getMessage());
    }
  }

  private static McpServerSpec server(JsonNode server, String where) {
    if (!server.isObject()) {
      throw AcpError.invalidParams(where + " must be an object");
    }
    String name = text(server, "name", where);
    String type = server.path("type").asText("stdio");
    return switch (type) {
      case "stdio" -> McpServerSpec.stdio(name, text(server, "command", where), strings(server.path("args"), where + ".args"),
          pairs(server.path("env"), where + ".env"));
      case "http" -> McpServerSpec.http(name, text(server, "url", where), pairs(server.path("headers"), where + ".headers"));
      case "sse" -> throw AcpError.invalidParams(where + " (" + name + ") is an SSE server; roundhouse acp takes stdio and http MCP servers (mcpCapabilities.sse is false)");
      default -> throw AcpError.invalidParams(where + " (" + name + ") has type '" + type + "'; roundhouse acp takes stdio and http MCP servers");
    };
  }

  private static String text(JsonNode node, String field, String where) {
    JsonNode value = node.path(field);
    if (!value.isTextual() || value.asText().isBlank()) {
      throw AcpError.invalidParams(where + "." + field + " is required (a string)");
    }
    return value.asText();
  }

  private static List<String> strings(JsonNode array, String where) {
    if (array.isMissingNode() || array.isNull()) {
      return List.of();
    }
    if (!array.isArray()) {
      throw AcpError.invalidParams(where + " must be an array of strings");
    }
    List<String> values = new ArrayList<>();
    for (JsonNode value : array) {
      if (!value.isTextual()) {
        throw AcpError.invalidParams(where + " must be an array of strings");
      }
      values.add(value.asText());
    }
    return values;
  }

  /** ACP's {@code [{name, value}]} (env variables, http headers) as a map; says which name is wrong, never a value. */
  private static Map<String, String> pairs(JsonNode array, String where) {
    if (array.isMissingNode() || array.isNull()) {
      return Map.of();
    }
    if (!array.isArray()) {
      throw AcpError.invalidParams(where + " must be an array of {name, value}");
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (JsonNode pair : array) {
      JsonNode name = pair.path("name");
      if (!name.isTextual() || name.asText().isEmpty() || !pair.path("value").isTextual()) {
        throw AcpError.invalidParams(where + " must be an array of {name, value}, both strings" + (name.isTextual() ? " (see " + name.asText() + ")" : ""));
      }
      values.put(name.asText(), pair.get("value").asText());
    }
    return values;
  }
}
