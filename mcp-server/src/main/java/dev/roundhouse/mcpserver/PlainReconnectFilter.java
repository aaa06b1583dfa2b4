package dev.roundhouse.mcpserver;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;

/**
 * Hands the SDK a GET that tries to resume a stream ({@code Last-Event-ID}) as a plain new GET stream. The
 * SDK (2.2.0) keeps no events to replay, so the header cannot bring anything back; but a GET carrying it that
 * replaces a session's listening stream leaves that session deaf: the new stream gets its headers and never an
 * event, while the same GET without the header works (measured on 2.2.0, three runs of each). Clients
 * that resume (the TypeScript SDK's, after a dropped stream) would lose every later {@code resources/updated}.
 * See {@code docs/mcp.md}, "Resumability". Must be deployed async-supported. Thread-safe (stateless).
 */
final class PlainReconnectFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  static final String LAST_EVENT_ID = "Last-Event-ID";

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if ("GET".equalsIgnoreCase(request.getMethod()) && request.getHeader(LAST_EVENT_ID) != null) {
      chain.doFilter(new WithoutLastEventId(request), response);
    } else {
      chain.doFilter(request, response);
    }
  }

  /** The request, minus its {@code Last-Event-ID} header. */
  private static final class WithoutLastEventId extends HttpServletRequestWrapper {
    WithoutLastEventId(HttpServletRequest request) {
      super(request);
    }

    @Override
    public String getHeader(String name) {
      return LAST_EVENT_ID.equalsIgnoreCase(name) ? null : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
      return LAST_EVENT_ID.equalsIgnoreCase(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
    }

    @Override
    public Enumeration<String> getHeaderNames() {
      return Collections.enumeration(Collections.list(super.getHeaderNames()).stream()
          .filter(name -> !LAST_EVENT_ID.equalsIgnoreCase(name)).toList());
    }
  }
}
