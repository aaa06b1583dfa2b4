package dev.roundhouse.hub.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The one platform thread that forks every child that asks for a parent-death signal. Linux sends
 * {@code PR_SET_PDEATHSIG} when the <em>thread</em> that forked the child ends, not the process: a child
 * forked from a turn's virtual thread (on a carrier of the common pool, which retires idle carriers) or from
 * a short-lived platform thread would be killed while the hub runs on. This thread lives as long as the JVM
 * (a single-thread executor never retires its thread), so the signal comes only when the hub dies.
 *
 * <p>Thread-safe: starts are serialised on the thread (a fork takes about a millisecond).
 */
final class SpawnThread {
  private static final ExecutorService THREAD = Executors.newSingleThreadExecutor(
      Thread.ofPlatform().daemon().name("roundhouse-spawner").factory());

  private SpawnThread() {}

  /** One start of a process, run on the spawner thread. */
  @FunctionalInterface
  interface Spawn<P extends Process> {
    P start() throws IOException;
  }

  /**
   * Runs {@code spawn} on the spawner thread ({@code what} names it in an error). An interrupt does not abandon the start (the child would
   * run with nobody holding it): it waits for it and keeps the interrupt for the caller.
   */
  static <P extends Process> P start(Spawn<P> spawn, String what) throws IOException {
    Future<P> started = THREAD.submit(() -> {
      try {
        return spawn.start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return started.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          if (e.getCause() instanceof UncheckedIOException io) {
            throw io.getCause();
          }
          throw new ProcessException("cannot start " + what + ": " + e.getCause(), e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
