package dev.roundhouse.mcpserver;

/**
 * Where the hub a stdio relay speaks for listens now. The relay asks again when the hub stops answering (a
 * refused connection, or a 404 for its session), so it follows a hub restarted on another port.
 * Implementations must be thread-safe: the relay's request threads and its listening thread may ask at once.
 */
@FunctionalInterface
public interface HubLocator {
  /**
   * The hub's base URL (without {@code /mcp}).
   *
   * @param mayStart whether a hub may be started when none runs (the relay passes {@code false} when nobody
   *     is waiting for an answer, so a stopped hub is not restarted behind the user's back)
   * @throws RuntimeException with a sentence saying why, when no hub can be found
   */
  String baseUrl(boolean mayStart);
}
