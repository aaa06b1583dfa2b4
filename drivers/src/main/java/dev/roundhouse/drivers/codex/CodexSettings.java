package dev.roundhouse.drivers.codex;

import dev.roundhouse.drivers.process.AgentCommand;
import java.time.Duration;
import java.util.Objects;

/**
 * How the Codex driver runs {@code codex app-server}. Immutable.
 *
 * @param command the program ({@code codex}, or a path), extra arguments before {@code app-server}, and
 *     variables set for it (a {@code CODEX_HOME}, a provider's key)
 * @param stopGrace after {@code turn/interrupt}, how long the turn has to end before the process group is
 *     killed
 * @param endpointDeadline how long a turn may wait on its model endpoint without any sign of life before it
 *     ends with an error naming the endpoint (Codex itself retries a dead endpoint for ever); time parked on
 *     an approval or spent running a command does not count
 * @param requestTimeout how long to wait for the app-server's answer to a request ({@code initialize},
 *     {@code thread/start}, ...)
 * @param defaultApprovalPolicy the Codex approval policy when a turn names no permission mode: {@code
 *     untrusted} asks the hub's gate before anything that is not known to be read-only
 * @param sandbox the Codex sandbox mode for threads: {@code read-only}, {@code workspace-write} or {@code
 *     danger-full-access}
 */
public record CodexSettings(
    AgentCommand command,
    Duration stopGrace,
    Duration endpointDeadline,
    Duration requestTimeout,
    String defaultApprovalPolicy,
    String sandbox) {

  public CodexSettings {
    Objects.requireNonNull(command, "command");
    requirePositive(stopGrace, "stopGrace");
    requirePositive(endpointDeadline, "endpointDeadline");
    requirePositive(requestTimeout, "requestTimeout");
    Objects.requireNonNull(defaultApprovalPolicy, "defaultApprovalPolicy");
    Objects.requireNonNull(sandbox, "sandbox");
  }

  /** {@code codex} on {@code PATH}, a 5 s stop grace, a 3 min endpoint deadline, {@code untrusted}, {@code workspace-write}. */
  public static CodexSettings defaults() {
    return new CodexSettings(
        AgentCommand.of("codex"), Duration.ofSeconds(5), Duration.ofMinutes(3), Duration.ofSeconds(30), "untrusted", "workspace-write");
  }

  /** A copy that runs {@code newCommand}. */
  public CodexSettings withCommand(AgentCommand newCommand) {
    return new CodexSettings(newCommand, stopGrace, endpointDeadline, requestTimeout, defaultApprovalPolicy, sandbox);
  }

  /** A copy with another endpoint deadline. */
  public CodexSettings withEndpointDeadline(Duration deadline) {
    return new CodexSettings(command, stopGrace, deadline, requestTimeout, defaultApprovalPolicy, sandbox);
  }

  /** A copy with another stop grace. */
  public CodexSettings withStopGrace(Duration grace) {
    return new CodexSettings(command, grace, endpointDeadline, requestTimeout, defaultApprovalPolicy, sandbox);
  }

  private static void requirePositive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, not " + duration);
    }
  }
}
