package dev.roundhouse.app;

import dev.roundhouse.hub.core.RoundhouseException;

/**
 * A failure the command reports as one line on stderr, {@code roundhouse: <message>}, and an {@link ExitCode}.
 * The message names what was wrong. Immutable.
 */
final class CliFailure extends RoundhouseException {
  private static final long serialVersionUID = 1L;
  private final ExitCode exit;

  CliFailure(ExitCode exit, String code, String message) {
    super(code, message);
    this.exit = exit;
  }

  CliFailure(ExitCode exit, String code, String message, Throwable cause) {
    super(code, message, cause);
    this.exit = exit;
  }

  ExitCode exit() {
    return exit;
  }
}
