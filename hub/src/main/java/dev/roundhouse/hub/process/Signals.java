package dev.roundhouse.hub.process;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Sends signals. Java can signal one process ({@link ProcessHandle#destroy}), which also checks that the
 * pid still has the start time it had when the handle was taken; it cannot signal a process group, so
 * group signals go through the {@code kill} binary ({@code kill -s TERM -- -PGID}) until the module may use
 * the FFM API. Stateless; thread-safe.
 */
final class Signals {
  private static final String KILL = Binaries.KILL.orElse("kill");

  private Signals() {}

  /** Signals every process in group {@code pgid}; a group that is already gone is not an error. */
  static void group(String signal, long pgid) {
    run(List.of(KILL, "-s", signal, "--", "-" + pgid));
  }

  /** SIGTERM ({@code force} false) or SIGKILL to one process, if it still started at {@code startTicks}. */
  static void process(long pid, long startTicks, boolean force) {
    Optional<ProcFs.Stat> stat = ProcFs.stat(pid);
    if (stat.isEmpty() || stat.get().startTicks() != startTicks) {
      return;
    }
    ProcessHandle.of(pid).ifPresent(handle -> {
      if (force) {
        handle.destroyForcibly();
      } else {
        handle.destroy();
      }
    });
  }

  private static void run(List<String> command) {
    try {
      Process kill = new ProcessBuilder(new ArrayList<>(command))
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      if (!kill.waitFor(10, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        throw new ProcessException("'" + String.join(" ", command) + "' did not finish within 10 s");
      }
    } catch (IOException e) {
      throw new ProcessException("cannot run '" + String.join(" ", command) + "': " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ProcessException("interrupted while running '" + String.join(" ", command) + "'", e);
    }
  }
}
