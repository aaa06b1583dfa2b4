package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.util.Iterator;
import java.util.Set;

/**
 * A {@code tools/call} request that asks for nothing but the call: one JSON-RPC request (not a batch) with a
 * string or integer id (at most a {@code long}), whose params hold a tool name, optional arguments, and {@code _meta} without a
 * progress token. Anything else (a batch, other params such as a task to run the call as, a progress token, a
 * malformed message) is not one, and the SDK answers it. Immutable.
 *
 * @param id the request's id: a {@link String}, {@link Integer} or {@link Long}, as the SDK reads ids
 * @param name the tool
 * @param arguments the arguments, or null when there were none
 */
record PlainToolCall(Object id, String name, JsonNode arguments) {
  private static final Set<String> MESSAGE_FIELDS = Set.of("jsonrpc", "id", "method", "params");
  private static final Set<String> PARAMS_FIELDS = Set.of("name", "arguments", "_meta");

  /** The call {@code body} holds, or null when it is not a plain call. */
  static PlainToolCall of(byte[] body) {
    if (!ToolCallRouting.mentionsToolsCall(body)) {
      return null;
    }
    JsonNode message;
    try {
      message = Json.mapper().readTree(body);
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return message == null ? null : of(message);
  }

  /** The call {@code message} (as {@link MessageChecks} parsed it) is, or null when it is not a plain call. */
  static PlainToolCall of(JsonNode message) {
    if (message == null || !message.isObject() || !only(message, MESSAGE_FIELDS)
        || !"2.0".equals(message.path("jsonrpc").textValue()) || !"tools/call".equals(message.path("method").textValue())) {
      return null;
    }
    JsonNode id = message.get("id");
    JsonNode params = message.get("params");
    if (id == null || !(id.isTextual() || (id.isIntegralNumber() && id.canConvertToLong())) || params == null || !params.isObject() || !only(params, PARAMS_FIELDS)) {
      return null;
    }
    JsonNode name = params.get("name");
    JsonNode arguments = params.get("arguments");
    JsonNode meta = params.get("_meta");
    if (name == null || !name.isTextual()
        || (arguments != null && !arguments.isNull() && !arguments.isObject())
        || (meta != null && !meta.isNull() && (!meta.isObject() || meta.has("progressToken")))) {
      return null;
    }
    Object key = id.isTextual() ? id.textValue() : id.canConvertToInt() ? (Object) id.intValue() : (Object) id.longValue();
    return new PlainToolCall(key, name.textValue(), arguments == null || arguments.isNull() ? null : arguments);
  }

  private static boolean only(JsonNode object, Set<String> fields) {
    for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
      if (!fields.contains(names.next())) {
        return false;
      }
    }
    return true;
  }
}
