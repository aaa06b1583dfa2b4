package dev.roundhouse.drivers.acp;

/**
 * Sees every line the agent writes to stdout, with the {@link System#nanoTime()} it was read at, before it
 * is dispatched (for measuring the hub-added latency from an agent's line to the emitted event). Called on
 * the agent's stdout reader thread; must be quick and must not throw.
 */
@FunctionalInterface
interface LineObserver {
  LineObserver NONE = (nanoTime, line) -> {};

  void onLine(long nanoTime, String line);
}
