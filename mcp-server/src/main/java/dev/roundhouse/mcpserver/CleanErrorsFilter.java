package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Json;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Rewrites every error the SDK's servlet answers (status 400 or more) into a one-line JSON-RPC error: the
 * SDK serializes its whole exception, stack trace included, into error bodies, and answers some errors
 * with the container's HTML page. Successful answers, which the SDK streams asynchronously, pass through
 * untouched. Must be deployed async-supported. Thread-safe (stateless).
 */
final class CleanErrorsFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    ErrorCapturingResponse capturing = new ErrorCapturingResponse(response);
    chain.doFilter(request, capturing);
    if (capturing.failed()) {
      JsonRpcErrors.send(response, capturing.status(), message(capturing));
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
