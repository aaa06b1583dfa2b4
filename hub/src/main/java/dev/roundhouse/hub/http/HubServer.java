package dev.roundhouse.hub.http;

import dev.roundhouse.hub.Hub;
import java.time.Duration;
import java.util.List;

/**
 * The hub's HTTP face: the operations under {@code /api/ops}, readable routes for the board and tasks,
 * the event stream as SSE, and a health check. See {@code docs/http.md}.
 *
 * <p>Thread-safe.
 */
public interface HubServer extends AutoCloseable {

  /** The port actually bound (useful when 0 was asked for). */
  int port();

  /** The base URL, such as {@code http://127.0.0.1:7420}. */
  String url();

  @Override
  void close();

  /**
   * Refuses {@code config}'s bind address when it is not loopback and remote access was not allowed
   * ({@code --allow-remote}), with a sentence saying so; {@link #start} checks the same. Callers check it before
   * they open the hub, so a refused start creates nothing in the home.
   *
   * @throws dev.roundhouse.hub.core.RoundhouseException.InvalidInput naming the address
   */
  static void checkBind(dev.roundhouse.hub.HubConfig config) {
    UndertowHubServer.checkBindAllowed(config);
  }

  /** Starts serving {@code hub} on its configured address and port. */
  static HubServer start(Hub hub) {
    return UndertowHubServer.start(hub, Duration.ofSeconds(15), List.of());
  }

  /** As {@link #start(Hub)}, with the interval between SSE keep-alive comments. */
  static HubServer start(Hub hub, Duration keepAlive) {
    return UndertowHubServer.start(hub, keepAlive, List.of());
  }

  /**
   * As {@link #start(Hub, Duration)}, also serving each of {@code mounts} under its path prefix (see
   * {@link HttpMount}). The server owns the mounts from here on: it closes them when it closes, or at
   * once when it cannot start.
   */
  static HubServer start(Hub hub, Duration keepAlive, List<? extends HttpMount> mounts) {
    return UndertowHubServer.start(hub, keepAlive, mounts);
  }
}
