package dev.roundhouse.hub.http;

import io.undertow.server.HttpHandler;

/**
 * Another face served on the hub's own HTTP server under a path prefix, such as the MCP endpoint at
 * {@code /mcp}. A request whose path is the prefix or lies below it goes to {@link #handler()} on a
 * virtual thread (where it may block), skipping the hub's own routes. Unless it is {@link #guarded()}, it
 * skips the hub's {@code Guard} too and applies its own origin, host and token checks (the MCP endpoint has a
 * token of its own). The server closes each mount after it has stopped listening.
 *
 * <p>Implementations must be thread-safe: the handler serves many requests at once.
 */
public interface HttpMount extends AutoCloseable {

  /** The path prefix, starting with {@code /} and without a trailing one, such as {@code /mcp}. */
  String prefix();

  /** Serves every request under {@link #prefix()}; it must answer errors itself, without stack traces. */
  HttpHandler handler();

  /**
   * True when the hub's own checks run first, as for its {@code /api} routes: a foreign {@code Origin}, a
   * {@code Host} that is not this machine, and a missing or wrong hub token (a bearer header, or on a WebSocket
   * upgrade the {@code roundhouse.token.<token>} subprotocol) are refused with the hub's error answer before
   * {@link #handler()} runs. False by default: the mount checks for itself.
   */
  default boolean guarded() {
    return false;
  }

  /** Releases what the mount holds; called once, after the server stopped listening. */
  @Override
  default void close() {}

  /** True when {@code path} is this mount's prefix or lies below it. */
  default boolean serves(String path) {
    String prefix = prefix();
    return path.equals(prefix) || (path.startsWith(prefix) && path.charAt(prefix.length()) == '/');
  }
}
