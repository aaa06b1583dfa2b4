package dev.roundhouse.hub.http;

import io.undertow.server.HttpHandler;

/**
 * Another face served on the hub's own HTTP server under a path prefix, such as the MCP endpoint at
 * {@code /mcp}. A request whose path is the prefix or lies below it goes to {@link #handler()} on a
 * virtual thread (where it may block), skipping the hub's own {@code Guard} and routes: the mount applies
 * its own origin, host and token checks. The server closes each mount after it has stopped listening.
 *
 * <p>Implementations must be thread-safe: the handler serves many requests at once.
 */
public interface HttpMount extends AutoCloseable {

  /** The path prefix, starting with {@code /} and without a trailing one, such as {@code /mcp}. */
  String prefix();

  /** Serves every request under {@link #prefix()}; it must answer errors itself, without stack traces. */
  HttpHandler handler();

  /** Releases what the mount holds; called once, after the server stopped listening. */
  @Override
  default void close() {}

  /** True when {@code path} is this mount's prefix or lies below it. */
  default boolean serves(String path) {
    String prefix = prefix();
    return path.equals(prefix) || (path.startsWith(prefix) && path.charAt(prefix.length()) == '/');
  }
}
