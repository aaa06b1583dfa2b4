package dev.roundhouse.drivers.claude;

import dev.roundhouse.drivers.process.AgentCommand;
import java.time.Duration;
import java.util.Objects;

/**
 * How the Claude Code driver runs the {@code claude} CLI. Immutable.
 *
 * @param command the program (a path, or {@code claude} looked up on {@code PATH}), extra arguments placed
 *     before the driver's own, and extra environment variables (an API key, a base URL, a HOME of its own)
 * @param stopGrace on stop, how long the CLI has to end the interrupted turn and exit before its process
 *     group is killed; also how long it has to exit once its session ends
 * @param probeTimeout how long {@code claude --version}, {@code --help} and {@code auth status} may take
 */
public record ClaudeSettings(AgentCommand command, Duration stopGrace, Duration probeTimeout) {
  public ClaudeSettings {
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(stopGrace, "stopGrace");
    Objects.requireNonNull(probeTimeout, "probeTimeout");
    if (stopGrace.isNegative() || probeTimeout.isNegative() || probeTimeout.isZero()) {
      throw new IllegalArgumentException("stopGrace must not be negative and probeTimeout must be positive");
    }
  }

  /** {@code claude} on {@code PATH}, a 4-second stop grace, 10 seconds for probes. */
  public static ClaudeSettings defaults() {
    return new ClaudeSettings(AgentCommand.of("claude"), Duration.ofSeconds(4), Duration.ofSeconds(10));
  }

  /** A copy that runs {@code newCommand}. */
  public ClaudeSettings withCommand(AgentCommand newCommand) {
    return new ClaudeSettings(newCommand, stopGrace, probeTimeout);
  }

  /** A copy with another stop grace. */
  public ClaudeSettings withStopGrace(Duration grace) {
    return new ClaudeSettings(command, grace, probeTimeout);
  }
}
