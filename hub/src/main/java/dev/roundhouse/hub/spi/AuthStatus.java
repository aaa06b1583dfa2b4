package dev.roundhouse.hub.spi;

/**
 * Whether a driver can run here: its agent is installed, logged in or has a key, and (for a verify)
 * actually answers. Immutable.
 *
 * @param ok true when the driver can run
 * @param detail one sentence a human can act on ("codex 0.171.0, logged in", "no API key: set
 *     ROUNDHOUSE_OPENAI_API_KEY")
 */
public record AuthStatus(boolean ok, String detail) {
  public static AuthStatus ok(String detail) {
    return new AuthStatus(true, detail);
  }

  public static AuthStatus problem(String detail) {
    return new AuthStatus(false, detail);
  }
}
