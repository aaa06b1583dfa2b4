package dev.roundhouse.hub.process;

import dev.roundhouse.hub.core.RoundhouseException;

/**
 * A child process could not be started, listed or signalled: a missing {@code setsid}, a working directory
 * that does not exist, an unreadable {@code /proc}. Immutable; thread-safe.
 */
public final class ProcessException extends RoundhouseException {
  private static final long serialVersionUID = 1L;

  public ProcessException(String message) {
    super("process_failed", message);
  }

  public ProcessException(String message, Throwable cause) {
    super("process_failed", message, cause);
  }
}
