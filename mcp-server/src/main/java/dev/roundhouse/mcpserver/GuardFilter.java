package dev.roundhouse.mcpserver;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import dev.roundhouse.mcpserver.oauth.McpAuthorization;
import java.io.IOException;

/**
 * Refuses a request with more than one {@code Origin} or {@code Host} header (403), then applies {@link RequestChecks} to every request and answers a refusal itself, as a JSON-RPC error, with
 * {@code WWW-Authenticate} on a 401; a request that passes carries its {@link Caller} as a request attribute. Must be deployed async-supported, as the SDK's servlet answers
 * requests asynchronously. Thread-safe (immutable).
 */
final class GuardFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  private final transient RequestChecks checks;
  private final boolean withMetadata;

  /** @param withMetadata whether a 401 points at the protected resource metadata (the hub has an authorization server) */
  GuardFilter(RequestChecks checks, boolean withMetadata) {
    this.checks = checks;
    this.withMetadata = withMetadata;
  }

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    for (String header : new String[] {"Origin", "Host"}) {
      int count = java.util.Collections.list(request.getHeaders(header)).size();
      if (count > 1) {
        // One value each, or the check reads the first and another layer (a proxy, a browser) may read the last.
        JsonRpcErrors.send(response, 403, "the request has " + count + " " + header + " headers; at most one is accepted");
        return;
      }
    }
    switch (checks.check(request::getHeader, request.getLocalPort())) {
      case RequestChecks.Passed passed -> {
        request.setAttribute(Caller.KEY, passed.caller());
        chain.doFilter(request, response);
      }
      case RequestChecks.Refusal refusal -> {
        if (refusal.challenge()) {
          response.setHeader("WWW-Authenticate", challenge(request, refusal));
        }
        JsonRpcErrors.send(response, refusal.status(), refusal.message());
      }
    }
  }

  /**
   * The 401's challenge: where the protected resource metadata is (RFC 9728), on the URL the request came in by,
   * when the hub has an authorization server; and why a presented token failed (RFC 6750).
   */
  private String challenge(HttpServletRequest request, RequestChecks.Refusal refusal) {
    StringBuilder challenge = new StringBuilder("Bearer realm=\"roundhouse-mcp\"");
    if (withMetadata) {
      String host = request.getHeader("Host");
      String base = request.getScheme() + "://" + (host == null ? request.getLocalAddr() + ":" + request.getLocalPort() : host);
      challenge.append(", resource_metadata=\"").append(base).append(McpAuthorization.RESOURCE_METADATA).append('"');
    }
    if (refusal.error() != null) {
      challenge.append(", error=\"").append(refusal.error()).append("\", error_description=\"")
          .append(refusal.message().replace("\"", "'").replace("\\", "/")).append('"');
    }
    return challenge.toString();
  }
}
