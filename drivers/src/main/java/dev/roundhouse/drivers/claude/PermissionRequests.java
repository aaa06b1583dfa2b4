package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.PermissionRequest;

/**
 * Turns the CLI's {@code can_use_tool} control request into the hub's {@link PermissionRequest}, with one
 * line a human can judge: the command for a shell tool, the file for a file tool, the server and tool for
 * an MCP tool. Stateless; thread-safe.
 */
final class PermissionRequests {
  private static final int MAX_INPUT_CHARS = 200;

  private PermissionRequests() {}

  /** {@code request} is the control request's {@code request} object. */
  static PermissionRequest from(JsonNode request) {
    String tool = request.path("tool_name").asText("");
    JsonNode input = request.path("input");
    String callId = request.path("tool_use_id").isTextual() ? request.path("tool_use_id").asText() : null;
    String command = input.path("command").isTextual() ? input.path("command").asText() : null;
    return new PermissionRequest(callId, tool.isEmpty() ? "unknown tool" : tool, input, describe(tool, input, request), command);
  }

  static String describe(String tool, JsonNode input, JsonNode request) {
    if (input.path("command").isTextual()) {
      return "Run: " + input.path("command").asText();
    }
    if (input.path("file_path").isTextual()) {
      return verb(tool) + " " + input.path("file_path").asText();
    }
    if (input.path("notebook_path").isTextual()) {
      return "Edit notebook " + input.path("notebook_path").asText();
    }
    if (tool.startsWith("mcp__")) {
      String[] parts = tool.split("__", 3);
      String name = parts.length == 3 ? "tool " + parts[2] + " of MCP server " + parts[1] : tool;
      return "Call " + name + " with " + shortJson(input);
    }
    if (input.path("url").isTextual()) {
      return "Fetch " + input.path("url").asText();
    }
    String cliDescription = request.path("description").asText("");
    return cliDescription.isBlank() ? "Use " + tool + " with " + shortJson(input) : cliDescription;
  }

  private static String verb(String tool) {
    return switch (tool) {
      case "Write" -> "Write";
      case "Edit", "MultiEdit" -> "Edit";
      case "Read" -> "Read";
      default -> tool;
    };
  }

  private static String shortJson(JsonNode input) {
    String text = input == null || input.isMissingNode() ? "{}" : Json.write(input);
    return text.length() <= MAX_INPUT_CHARS ? text : text.substring(0, MAX_INPUT_CHARS) + "…";
  }
}
