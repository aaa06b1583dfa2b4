package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;

/**
 * Builds the JSON schema of a flat tool input and the OpenAI function definition around it.
 *
 * <p>Not thread-safe: build one on one thread, then share the finished node.
 */
final class ToolSchema {
  private final ObjectNode node = Json.mapper().createObjectNode();
  private final ObjectNode properties;
  private final ArrayNode required;

  private ToolSchema() {
    node.put("type", "object");
    properties = node.putObject("properties");
    required = node.putArray("required");
    node.put("additionalProperties", false);
  }

  /** An object schema without properties yet. */
  static ToolSchema object() {
    return new ToolSchema();
  }

  /** A {@code tools} entry: {@code {"type":"function","function":{name, description, parameters}}}. */
  static ObjectNode function(String name, String description, ToolSchema parameters) {
    ObjectNode tool = Json.mapper().createObjectNode();
    tool.put("type", "function");
    ObjectNode function = tool.putObject("function");
    function.put("name", name);
    function.put("description", description);
    function.set("parameters", parameters.node);
    return tool;
  }

  ToolSchema required(String name, String type, String description) {
    required.add(name);
    return optional(name, type, description);
  }

  ToolSchema optional(String name, String type, String description) {
    properties.putObject(name).put("type", type).put("description", description);
    return this;
  }
}
