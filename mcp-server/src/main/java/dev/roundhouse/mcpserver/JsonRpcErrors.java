package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes an HTTP error as a JSON-RPC error object with a null id: {@code {"jsonrpc":"2.0","id":null,
 * "error":{"code":-32600,"message":"..."}}}. The message is one line of at most 500 characters, so no
 * stack trace or echoed request can reach a client. Stateless; thread-safe.
 */
final class JsonRpcErrors {
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int SERVER_ERROR = -32000;
  /** A request named a session the server does not have: the code the MCP TypeScript SDK's server answers too. */
  static final int SESSION_NOT_FOUND = -32001;
  private static final int MAX_MESSAGE = 500;

  private JsonRpcErrors() {}

  static void send(HttpServletResponse response, int status, String message) throws IOException {
    send(response, status, code(status, message), message);
  }

  static void send(HttpServletResponse response, int status, int code, String message) throws IOException {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("jsonrpc", "2.0");
    body.putNull("id");
    ObjectNode error = body.putObject("error");
    error.put("code", code);
    error.put("message", oneLine(message));
    response.setStatus(status);
    response.setContentType("application/json");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    response.getWriter().write(Json.write(body));
    response.getWriter().flush();
  }

  /**
   * Answers the request {@code id} with a JSON-RPC error, as HTTP 200 and JSON: a refusal of one request the
   * client can match to what it asked, as the SDK answers a request that fails.
   */
  static void answer(HttpServletResponse response, JsonNode id, int code, String message) throws IOException {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("jsonrpc", "2.0");
    body.set("id", id);
    ObjectNode error = body.putObject("error");
    error.put("code", code);
    error.put("message", oneLine(message));
    response.setStatus(200);
    response.setContentType("application/json");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    response.getWriter().write(Json.write(body));
    response.getWriter().flush();
  }

  private static int code(int status, String message) {
    if (status == 400 && message.startsWith("Invalid message format")) {
      return PARSE_ERROR;
    }
    return status == 400 || status == 404 || status == 413 ? INVALID_REQUEST : SERVER_ERROR;
  }

  /** The first line of {@code message}, without Jackson's source excerpt, cut to a readable length. */
  static String oneLine(String message) {
    String line = message == null ? "" : message.strip();
    int newline = line.indexOf('\n');
    if (newline >= 0) {
      line = line.substring(0, newline).strip();
    }
    int source = line.indexOf(" at [Source:");
    if (source >= 0) {
      line = line.substring(0, source).strip();
    }
    return line.length() <= MAX_MESSAGE ? line : line.substring(0, MAX_MESSAGE) + "…";
  }
}
