package dev.roundhouse.app;

/**
 * The exit statuses of the {@code roundhouse} command, as documented in {@code docs/cli.md}. Scripts rely on
 * them, so a status never changes meaning. Immutable.
 */
enum ExitCode {
  /** The command did what was asked; {@code doctor} found nothing failing; {@code serve} stopped on a signal. */
  OK(0),
  /** The hub refused the request (unknown task, invalid value, conflict), or a {@code doctor} check failed. */
  FAILED(1),
  /** The command line is wrong: an unknown command or option, a missing or malformed argument. */
  USAGE(2),
  /** No hub is running for this home, or the one named by the lock file or ROUNDHOUSE_URL does not answer. */
  NO_HUB(3),
  /** {@code serve}: another hub already holds this home's lock; the message names its pid. */
  HOME_LOCKED(4),
  /** {@code serve}: the hub cannot start: the port is in use, the bind address is refused, a setting is invalid. */
  CANNOT_START(5),
  /** {@code run}: the run needed a person: a permission was denied, the agent asked a question, settings drifted. */
  NEEDED_PERSON(6),
  /** {@code run --timeout}: the turn was still running when the time was up; it was stopped. */
  TIMED_OUT(7);

  private final int status;

  ExitCode(int status) {
    this.status = status;
  }

  /** The process exit status. */
  int status() {
    return status;
  }
}
