package dev.roundhouse.services;

import java.time.Duration;
import java.util.Optional;

/**
 * A shell (or other program) on a real PTY, in a session of its own. One viewer is attached at a time; a
 * new attachment replaces the old. With no viewer, the session lives for the reattach grace period and is
 * then closed. Implementations are thread-safe.
 */
public interface TerminalSession extends AutoCloseable {
  String id();

  /** What it was opened with (its working directory and the environment the caller added). */
  TerminalSpec spec();

  /** The shell's pid, which is also its process group and session. */
  long pid();

  /** Sends keystrokes (bytes as typed, including control characters). */
  void input(byte[] bytes);

  void resize(int columns, int rows);

  /** Replays the recent scrollback to {@code listener}, then streams; closing the subscription detaches. */
  Subscription attach(TerminalListener listener);

  /** The exit code once the program ended. */
  Optional<Integer> exitCode();

  /**
   * Waits for the program to end.
   *
   * @throws ServiceException on timeout
   */
  int awaitExit(Duration timeout);

  /** Hangs up: SIGHUP to the shell's process group, SIGKILL to anything left after the grace period. */
  @Override
  void close();
}
