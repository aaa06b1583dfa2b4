package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * Checks a POSTed JSON-RPC message's shape before anything behind it reads it, so that every request with an id
 * gets exactly one answer: the SDK drops a message it cannot read into its records (a {@code tools/call} whose
 * {@code params} is an array, an {@code arguments} that is an array) and answers an empty stream, and names Java
 * classes for an id it cannot read. Refused here, with a JSON-RPC error that names the member:
 *
 * <ul>
 *   <li>no {@code Content-Type: application/json}: 415, {@code -32600};
 *   <li>not exactly one JSON value (trailing content, two objects back to back) or a key twice: 400, {@code -32700};
 *   <li>an id that is neither a string nor a whole number (an object, an array, {@code true}, {@code 1.5}, null):
 *       400, {@code -32600}, answered with a null id;
 *   <li>{@code "jsonrpc"} other than {@code "2.0"}, a method that is not a string: {@code -32600};
 *   <li>{@code params} that is not an object; for {@code tools/call} a {@code name} that is not a string or
 *       {@code arguments} or {@code _meta} that is not an object; for {@code logging/setLevel} a level that is not
 *       one of the eight: {@code -32602}.
 * </ul>
 *
 * A refused request with a usable id is answered with HTTP 200 and the error addressed to it (as the SDK answers
 * a failing request); a refused notification or response with 400. A batch (an array) is left to the SDK. The
 * parsed message is left on the request ({@link #MESSAGE}) for {@link DirectToolCalls}, and a response's id
 * ({@link #RESPONSE_ID}) for {@link CleanErrorsFilter}, which answers one the SDK cannot match (it fails with a
 * 500) with a 400 naming the id. Runs behind
 * {@link BodyLimitFilter}. Must be deployed async-supported. Thread-safe (immutable).
 */
final class MessageChecks extends PostFilter {
  private static final long serialVersionUID = 1L;
  /** The request attribute that holds the parsed message (a {@link JsonNode}). */
  static final String MESSAGE = MessageChecks.class.getName() + ".message";
  /** The request attribute set when the message is a response (to a request of the server's): its id. */
  static final String RESPONSE_ID = MessageChecks.class.getName() + ".response";
  static final int INVALID_PARAMS = -32602;
  static final Set<String> LEVELS = Set.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");

  /** Why a message is refused: the JSON-RPC code, a sentence, and the id to answer (null when none is usable). */
  record Refusal(int code, String message, JsonNode id) {}

  @Override
  void filterPost(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String type = request.getContentType();
    if (type == null || !type.strip().toLowerCase(Locale.ROOT).startsWith("application/json")) {
      JsonRpcErrors.send(response, 415, JsonRpcErrors.INVALID_REQUEST,
          "a POST to the MCP endpoint needs 'Content-Type: application/json'"
              + (type == null ? "; this request has no Content-Type" : ", not " + type));
      return;
    }
    byte[] body = BufferedBody.of(request).bytes();
    JsonNode message;
    try {
      message = Json.readStrict(body);
    } catch (JsonProcessingException e) {
      var at = e.getLocation();
      JsonRpcErrors.send(response, 400, JsonRpcErrors.PARSE_ERROR, "Parse error"
          + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr()) + ": " + e.getOriginalMessage());
      return;
    }
    Refusal refusal = message == null ? null : check(message);
    if (refusal == null) {
      request.setAttribute(MESSAGE, message);
      if (message.isObject() && !message.has("method") && message.has("id")) {
        request.setAttribute(RESPONSE_ID, message.get("id").asText());
      }
      chain.doFilter(request, response);
    } else if (refusal.id() == null) {
      JsonRpcErrors.send(response, 400, refusal.code(), refusal.message());
    } else {
      JsonRpcErrors.answer(response, refusal.id(), refusal.code(), refusal.message());
    }
  }

  /** Why {@code message} is refused, or null when its shape is fine (a batch is the SDK's to judge). */
  static Refusal check(JsonNode message) {
    if (message.isArray()) {
      return null;
    }
    if (!message.isObject()) {
      return new Refusal(JsonRpcErrors.INVALID_REQUEST, "a JSON-RPC message is an object, not " + kind(message), null);
    }
    JsonNode id = message.get("id");
    boolean hasMethod = message.has("method");
    if (id != null && !usableId(id)) {
      return new Refusal(JsonRpcErrors.INVALID_REQUEST,
          "the id must be a string or a whole number, not " + kind(id) + (hasMethod ? "" : " (in a response)"), null);
    }
    JsonNode version = message.get("jsonrpc");
    if (version == null || !"2.0".equals(version.textValue())) {
      return new Refusal(JsonRpcErrors.INVALID_REQUEST, "the member \"jsonrpc\" must be \"2.0\", not "
          + (version == null ? "missing" : Json.write(version)), id);
    }
    if (!hasMethod) {
      return null; // a response: the SDK matches it to what it asked
    }
    JsonNode method = message.get("method");
    if (!method.isTextual()) {
      return new Refusal(JsonRpcErrors.INVALID_REQUEST, "the member \"method\" must be a string, not " + kind(method), id);
    }
    JsonNode params = message.get("params");
    if (params != null && !params.isObject()) {
      return new Refusal(INVALID_PARAMS, method.textValue() + ": params must be an object, not " + kind(params), id);
    }
    return switch (method.textValue()) {
      case "tools/call" -> toolsCall(params, id);
      case "logging/setLevel" -> setLevel(params, id);
      default -> null;
    };
  }

  private static Refusal toolsCall(JsonNode params, JsonNode id) {
    if (params == null) {
      return new Refusal(INVALID_PARAMS, "tools/call: params is missing; it holds the tool's name and arguments", id);
    }
    JsonNode name = params.get("name");
    if (name == null || !name.isTextual()) {
      return new Refusal(INVALID_PARAMS, "tools/call: params.name must be the tool's name (a string), not "
          + (name == null ? "missing" : kind(name)), id);
    }
    for (String member : new String[] {"arguments", "_meta"}) {
      JsonNode value = params.get(member);
      if (value != null && !value.isNull() && !value.isObject()) {
        return new Refusal(INVALID_PARAMS, "tools/call: params." + member + " must be an object, not " + kind(value), id);
      }
    }
    return null;
  }

  private static Refusal setLevel(JsonNode params, JsonNode id) {
    JsonNode level = params == null ? null : params.get("level");
    if (level == null || !level.isTextual() || !LEVELS.contains(level.textValue())) {
      return new Refusal(INVALID_PARAMS, "logging/setLevel: params.level must be one of "
          + String.join(", ", LEVELS.stream().sorted().toList()) + ", not " + (level == null ? "missing" : Json.write(level)), id);
    }
    return null;
  }

  /** What JSON-RPC (and the SDK) accepts as an id: a string, or a whole number that fits a {@code long}. */
  static boolean usableId(JsonNode id) {
    return id.isTextual() || (id.isIntegralNumber() && id.canConvertToLong());
  }

  private static String kind(JsonNode value) {
    return switch (value.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case NUMBER -> value.isIntegralNumber() ? "a number too large" : "a fraction";
      default -> "a " + value.getNodeType().toString().toLowerCase(Locale.ROOT);
    };
  }
}
