package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * Renames a {@code tools/call} of a tool that does not exist to the hidden {@link UnknownTools#NAME}, keeping
 * the requested name in its arguments, so the SDK (which looks tools up itself and would answer "Unknown
 * tool: invalid_tool_name") hands it to our handler; everything else (session checks, the JSON or SSE answer)
 * stays the SDK's. Runs behind {@link BodyLimitFilter}, which has read the body (within the endpoint's limit)
 * into memory. Must be deployed async-supported. Thread-safe (immutable).
 */
final class ToolCallRouting extends PostFilter {
  private static final long serialVersionUID = 1L;
  private final transient Predicate<String> known;

  /** @param known whether a tool name is one the server has */
  ToolCallRouting(Predicate<String> known) {
    this.known = known;
  }

  @Override
  void filterPost(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    BufferedBody body = BufferedBody.of(request);
    byte[] rerouted = rerouted(body.bytes());
    chain.doFilter(rerouted == body.bytes() ? body : body.replacedBy(rerouted), response);
  }

  private byte[] rerouted(byte[] body) {
    if (!mentionsToolsCall(body)) {
      return body; // not a tools/call (initialize, notifications, reads): nothing to parse
    }
    String tool = calledTool(body);
    if (tool != null && known.test(tool)) {
      return body; // the common case, a call of a tool this server has: no tree built
    }
    JsonNode message;
    try {
      message = Json.mapper().readTree(body);
    } catch (IOException | RuntimeException e) {
      return body; // not JSON: the SDK answers the parse error
    }
    boolean changed = false;
    if (message != null && message.isArray()) {
      for (JsonNode each : message) {
        changed |= reroute(each);
      }
    } else if (message != null) {
      changed = reroute(message);
    }
    return changed ? Json.write(message).getBytes(StandardCharsets.UTF_8) : body;
  }

  private static final byte[] TOOLS_CALL = "tools/call".getBytes(StandardCharsets.US_ASCII);

  /**
   * Whether {@code tools/call} occurs in the body's bytes. A cheap filter in front of the parse: a message
   * without it cannot be a call to reroute (a method name written with escapes would be missed, and the SDK
   * then answers "Unknown tool" for it, as it would without this filter).
   */
  static boolean mentionsToolsCall(byte[] body) {
    outer:
    for (int i = 0; i <= body.length - TOOLS_CALL.length; i++) {
      for (int j = 0; j < TOOLS_CALL.length; j++) {
        if (body[i + j] != TOOLS_CALL[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * The tool that a body holding one {@code tools/call} request names, read with a streaming parser; null for
   * anything else (a batch, another method, no name, not JSON), which the tree-based path then handles.
   */
  static String calledTool(byte[] body) {
    try (JsonParser parser = Json.mapper().getFactory().createParser(body)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      String method = null;
      String name = null;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (field.equals("method") && value == JsonToken.VALUE_STRING) {
          method = parser.getText();
        } else if (field.equals("params") && value == JsonToken.START_OBJECT) {
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String param = parser.currentName();
            if (parser.nextToken() == JsonToken.VALUE_STRING && param.equals("name")) {
              name = parser.getText();
            } else {
              parser.skipChildren();
            }
          }
        } else {
          parser.skipChildren();
        }
      }
      return "tools/call".equals(method) ? name : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private boolean reroute(JsonNode message) {
    if (!message.isObject() || !"tools/call".equals(message.path("method").asText()) || !message.path("params").isObject()) {
      return false;
    }
    ObjectNode params = (ObjectNode) message.get("params");
    JsonNode name = params.get("name");
    if (name == null || !name.isTextual() || known.test(name.asText())) {
      return false;
    }
    ObjectNode arguments = Json.mapper().createObjectNode();
    arguments.put(UnknownTools.REQUESTED, name.asText());
    params.put("name", UnknownTools.NAME);
    params.set("arguments", arguments);
    return true;
  }
}
