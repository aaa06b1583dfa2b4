package dev.roundhouse.mcpserver;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Gives the MCP SDK's server its tools when the first request reaches it, not when the hub starts: a tool carries
 * its operation's JSON Schemas, and generating them for every operation was half of {@code serve}'s own start
 * (docs/performance.md). The filter is the last before the SDK, so no request reaches the SDK before the tools
 * are all added, in the order they are listed (the operations, then the unknown-tool catcher, then any extra).
 *
 * <p>Thread-safe: one request adds them (an {@link AtomicBoolean} picks it); the others that come meanwhile wait
 * for the same {@link CompletableFuture}, with no lock held. A failure to make them fails every request to the SDK
 * with that failure, as it failed the hub's start before. Must be deployed async-supported.
 */
final class ToolsOnFirstRequest extends HttpFilter {
  private static final long serialVersionUID = 1L;

  private final transient McpSyncServer server;
  private final transient Supplier<List<SyncToolSpecification>> tools;
  private final AtomicBoolean claimed = new AtomicBoolean();
  private final transient CompletableFuture<Void> added = new CompletableFuture<>();

  ToolsOnFirstRequest(McpSyncServer server, Supplier<List<SyncToolSpecification>> tools) {
    this.server = server;
    this.tools = tools;
  }

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    ensureAdded();
    chain.doFilter(request, response);
  }

  /** Adds the tools unless they are added already; waits while another request adds them. */
  void ensureAdded() {
    if (!added.isDone() && claimed.compareAndSet(false, true)) {
      try {
        tools.get().forEach(server::addTool);
        added.complete(null);
      } catch (RuntimeException | Error e) {
        added.completeExceptionally(e);
      }
    }
    added.join();
  }
}
