package dev.roundhouse.mcpserver;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A filter with something to do for POSTs (the requests that carry a JSON-RPC message) only: every other request
 * (the GET stream, DELETE) passes through untouched. Thread-safety is the subclass's to state.
 */
abstract class PostFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;

  @Override
  protected final void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if ("POST".equalsIgnoreCase(request.getMethod())) {
      filterPost(request, response, chain);
    } else {
      chain.doFilter(request, response);
    }
  }

  /** Does this filter's work for a POST, passing it on down {@code chain} or answering it. */
  abstract void filterPost(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException;
}
