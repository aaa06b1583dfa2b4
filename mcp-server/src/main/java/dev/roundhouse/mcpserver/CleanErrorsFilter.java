package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.FailureLog;
import dev.roundhouse.hub.core.Json;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites every error the SDK's servlet answers (status 400 or more) into a one-line JSON-RPC error: the
 * SDK serializes its whole exception, stack trace included, into error bodies, and answers some errors
 * with the container's HTML page. Successful answers, which the SDK streams asynchronously, pass through
 * untouched. A 404 for a request naming a session (the session is unknown or expired) becomes code {@code -32001}
 * with a sentence naming the session and telling the client to initialize again. An exception thrown by
 * anything behind it becomes a 500 naming a log reference (the container would answer with its HTML page). Must be deployed
 * async-supported. Thread-safe (immutable).
 */
final class CleanErrorsFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(CleanErrorsFilter.class);
  private final Duration sessionIdle;

  /** @param sessionIdle how long an idle session lives, named in the answer to an unknown or expired one */
  CleanErrorsFilter(Duration sessionIdle) {
    this.sessionIdle = sessionIdle;
  }

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    ErrorCapturingResponse capturing = new ErrorCapturingResponse(response);
    try {
      chain.doFilter(request, capturing);
    } catch (IOException | ServletException | RuntimeException e) {
      if (response.isCommitted()) {
        throw e; // part of an answer is out: nothing better to send than a cut connection
      }
      String ref = FailureLog.logged(log, "the MCP endpoint failed on a " + request.getMethod() + " request", e);
      response.reset();
      JsonRpcErrors.send(response, 500, "internal error in the MCP endpoint; the hub log has the details under reference " + ref);
      return;
    }
    if (capturing.failed()) {
      String session = request.getHeader("Mcp-Session-Id");
      Object answeredId = request.getAttribute(MessageChecks.RESPONSE_ID);
      if (capturing.status() >= 500 && answeredId != null) {
        // The SDK fails on a client's response it cannot match to a request of its own: the client's mistake.
        JsonRpcErrors.send(response, 400, JsonRpcErrors.INVALID_REQUEST,
            "the server is waiting for no answer with id " + answeredId + " (" + message(capturing) + ")");
      } else if (capturing.status() == 404 && session != null) {
        JsonRpcErrors.send(response, 404, JsonRpcErrors.SESSION_NOT_FOUND, unknownSession(session));
      } else {
        Integer code = jsonRpcCode(capturing);
        if (code != null) {
          JsonRpcErrors.send(response, capturing.status(), code, message(capturing)); // ours: its code stands
        } else {
          JsonRpcErrors.send(response, capturing.status(), message(capturing));
        }
      }
    }
  }

  /**
   * The answer to a request naming a session the endpoint does not have: the spec's signal (404) to start a
   * new session, said in words too. The SDK forgets a session once it is closed, so "unknown" and "expired"
   * cannot be told apart here.
   */
  private String unknownSession(String session) {
    String id = session.length() <= 100 ? session : session.substring(0, 100) + "…";
    return "unknown or expired MCP session '" + id + "' (a session idle for " + idle() + " is closed, as is every "
        + "session when the hub restarts); start a new session: send initialize without an Mcp-Session-Id header";
  }

  private String idle() {
    long seconds = sessionIdle.toSeconds();
    if (seconds >= 60 && seconds % 60 == 0) {
      return seconds / 60 + (seconds == 60 ? " minute" : " minutes");
    }
    return seconds >= 1 ? seconds + " s" : sessionIdle.toMillis() + " ms";
  }

  /** The code of a JSON-RPC error our own filters wrote ({@code {"jsonrpc":"2.0",…,"error":{"code":N}}}), or null. */
  private static Integer jsonRpcCode(ErrorCapturingResponse failed) {
    String body = failed.capturedBody();
    if (body.isBlank()) {
      return null;
    }
    try {
      JsonNode error = Json.mapper().readTree(body);
      JsonNode code = error.path("error").path("code");
      return "2.0".equals(error.path("jsonrpc").textValue()) && code.isInt() ? code.intValue() : null;
    } catch (IOException | RuntimeException notJson) {
      return null;
    }
  }

  private static String message(ErrorCapturingResponse failed) {
    String body = failed.capturedBody();
    if (!body.isBlank()) {
      try {
        JsonNode error = Json.mapper().readTree(body);
        JsonNode message = error.path("jsonRpcError").path("message");
        if (!message.isTextual()) {
          message = error.path("error").path("message");
        }
        if (!message.isTextual()) {
          message = error.path("message");
        }
        if (message.isTextual() && !message.asText().isBlank()) {
          return message.asText();
        }
      } catch (IOException | RuntimeException notJson) {
        // fall through to the sendError message or the status
      }
    }
    if (failed.errorMessage() != null && !failed.errorMessage().isBlank()) {
      return failed.errorMessage();
    }
    return switch (failed.status()) {
      case 404 -> "no such MCP session (it ended or expired); initialize a new one";
      case 405 -> "method not allowed on the MCP endpoint";
      case 503 -> "the MCP endpoint is shutting down";
      default -> "the MCP endpoint could not handle the request (HTTP " + failed.status() + ")";
    };
  }
}
