package dev.roundhouse.services;

/**
 * Receives a terminal's output: first the recent scrollback, then what follows, in order, then the exit.
 * Called on the terminal's reader thread (or the attaching thread for the scrollback), never under the
 * terminal's lock; a listener that blocks holds the shell back, as a slow real terminal would.
 */
public interface TerminalListener {
  void output(byte[] bytes);

  void exited(int exitCode);
}
