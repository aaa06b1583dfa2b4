package dev.roundhouse.mcpserver;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Applies {@link RequestChecks} to every request and answers a refusal itself, as a JSON-RPC error, with
 * {@code WWW-Authenticate} on a 401. Must be deployed async-supported, as the SDK's servlet answers
 * requests asynchronously. Thread-safe (immutable).
 */
final class GuardFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  private final transient RequestChecks checks;

  GuardFilter(RequestChecks checks) {
    this.checks = checks;
  }

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    var refusal = checks.check(request::getHeader);
    if (refusal.isEmpty()) {
      chain.doFilter(request, response);
      return;
    }
    if (refusal.get().challenge()) {
      response.setHeader("WWW-Authenticate", "Bearer realm=\"roundhouse-mcp\"");
    }
    JsonRpcErrors.send(response, refusal.get().status(), refusal.get().message());
  }
}
