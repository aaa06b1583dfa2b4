package dev.roundhouse.hub.spi;

/**
 * The gate's answer to a {@link PermissionRequest}. Every non-answer (stop, timeout, restart, no one
 * watching, an unparseable answer) is a denial, never an allowance. Immutable.
 *
 * @param allowed whether the tool may run
 * @param reason why, for the agent and the transcript ("allowed by rule 'npm test'", "denied: the turn
 *     was stopped")
 */
public record PermissionVerdict(boolean allowed, String reason) {
  public static PermissionVerdict allow(String reason) {
    return new PermissionVerdict(true, reason);
  }

  public static PermissionVerdict deny(String reason) {
    return new PermissionVerdict(false, reason);
  }
}
