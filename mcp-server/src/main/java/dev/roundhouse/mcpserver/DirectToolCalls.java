package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.ops.OperationRegistry;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * Answers a plain {@code tools/call} of one of the hub's operations ({@link PlainToolCall}) in a session the
 * SDK started, without the SDK: the same operation run for the same actor through {@link ToolCalls}, the same
 * result and log messages written with the SDK's own JSON mapper, as the SSE stream the SDK would write, but
 * without reading the message into a {@code Map}, Reactor, an asynchronous response and three wrappers. It is
 * the hot path of every MCP client and agent, and about a third of the hub's CPU per call went to that
 * machinery (see {@code docs/performance.md}).
 *
 * <p>Everything else goes to the SDK: other methods, calls with a progress token or other params, tools that
 * are not operations or not offered to the caller, operations that wait for a person ({@code ask_user}), requests that the SDK would refuse (no JSON content type,
 * an {@code Accept} without both types), and sessions that {@link KnownSessions} does not let through (not
 * yet confirmed, or due to show the SDK that they are in use). It watches the SDK's answers to requests that
 * name a session, to keep {@link KnownSessions} true. Runs behind {@link BodyLimitFilter}, which holds the
 * body in memory. Must be deployed async-supported. Thread-safe (immutable; its collaborators are).
 */
final class DirectToolCalls extends HttpFilter {
  private static final long serialVersionUID = 1L;
  static final String SESSION = "Mcp-Session-Id";

  private final transient KnownSessions sessions;
  private final transient OperationRegistry registry;
  private final transient ToolCalls calls;
  private final transient McpJsonMapper json;
  private final transient Predicate<String> quick;
  private final transient LongAdder answered = new LongAdder();

  /**
   * @param quick whether an operation answers without waiting for a person: one that waits (for as long as the
   *     person takes) goes through the SDK, whose open response stream keeps the session from being swept
   */
  DirectToolCalls(KnownSessions sessions, OperationRegistry registry, ToolCalls calls, McpJsonMapper json, Predicate<String> quick) {
    this.quick = quick;
    this.sessions = sessions;
    this.registry = registry;
    this.calls = calls;
    this.json = json;
  }

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String session = request.getHeader(SESSION);
    if (session == null) {
      chain.doFilter(request, response);
      return;
    }
    if ("DELETE".equalsIgnoreCase(request.getMethod())) {
      sessions.forget(session);
      chain.doFilter(request, response);
      return;
    }
    if ("POST".equalsIgnoreCase(request.getMethod()) && answered(session, request, response)) {
      return;
    }
    chain.doFilter(request, response);
    sessions.sdkAnswered(session, response.getStatus());
  }

  private boolean answered(String session, HttpServletRequest request, HttpServletResponse response) throws IOException {
    KnownSessions.Live known = sessions.direct(session);
    if (known == null || !acceptsBoth(request.getHeader("Accept")) || !isJson(request.getContentType())) {
      return false;
    }
    PlainToolCall call = request.getAttribute(MessageChecks.MESSAGE) instanceof JsonNode message
        ? PlainToolCall.of(message) : PlainToolCall.of(BufferedBody.of(request).bytes());
    if (call == null) {
      return false;
    }
    Optional<OperationDescriptor> operation = registry.describe(call.name());
    Caller caller = request.getAttribute(Caller.KEY) instanceof Caller c ? c : Caller.EXTERNAL;
    if (operation.isEmpty() || !caller.offered(call.name()) || !quick.test(call.name())) {
      return false; // the SDK answers: an unknown tool (ToolCallRouting), a test fixture's, or one that waits
    }
    List<McpSchema.LoggingMessageNotification> notices = new ArrayList<>(1);
    McpSchema.CallToolResult result = calls.call(caller.actor(known.client()), call.name(), call.arguments(),
        operation.get().annotations().readOnly(), new ToolCalls.CallLog() {
          @Override
          public boolean wants(LoggingLevel level) {
            return known.session().isNotificationForLevelAllowed(level);
          }

          @Override
          public void send(McpSchema.LoggingMessageNotification message) {
            notices.add(message);
          }
        });
    write(response, session, notices, result, call);
    answered.increment();
    return true;
  }

  /** How many calls this filter answered itself. */
  long answered() {
    return answered.sum();
  }

  /** The SSE stream the SDK writes for a call: each log message as an event, then the answer. */
  private void write(HttpServletResponse response, String session, List<McpSchema.LoggingMessageNotification> notices,
      McpSchema.CallToolResult result, PlainToolCall call) throws IOException {
    StringBuilder stream = new StringBuilder(512);
    for (int i = 0; i < notices.size(); i++) {
      event(stream, session + "_log-" + i,
          json.writeValueAsString(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_NOTIFICATION_MESSAGE, notices.get(i))));
    }
    // The SDK names an answer's event after the session too (resuming a stream is not supported: docs/mcp.md).
    event(stream, session, json.writeValueAsString(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, call.id(), result, null)));
    byte[] body = stream.toString().getBytes(StandardCharsets.UTF_8);
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType("text/event-stream; charset=UTF-8");
    response.setHeader("Cache-Control", "no-cache, no-transform");
    response.setHeader("X-Accel-Buffering", "no");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  private static void event(StringBuilder stream, String id, String data) {
    stream.append("id: ").append(id).append("\nevent: message\ndata: ").append(data).append("\n\n");
  }

  /** What the SDK requires of a POST's {@code Accept}, checked as the SDK checks it. */
  private static boolean acceptsBoth(String accept) {
    return accept != null && accept.contains("text/event-stream") && accept.contains("application/json");
  }

  private static boolean isJson(String contentType) {
    return contentType != null && contentType.strip().toLowerCase(java.util.Locale.ROOT).startsWith("application/json");
  }
}
