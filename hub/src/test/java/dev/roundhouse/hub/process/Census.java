package dev.roundhouse.hub.process;

import dev.roundhouse.hub.testing.Waits;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** Counts processes from /proc, as a test sees them. Stateless. */
final class Census {
  private Census() {}

  static boolean alive(long pid) {
    return ProcFs.stat(pid).filter(stat -> !stat.zombie()).isPresent();
  }

  /** Live processes whose environment holds {@code variable=value}. */
  static List<Long> carrying(String variable, String value) {
    return ProcFs.all().stream().filter(stat -> !stat.zombie())
        .filter(stat -> ProcFs.environContains(stat.pid(), variable + "=" + value)).map(ProcFs.Stat::pid).toList();
  }

  /**
   * Waits until {@code count} live processes carry the run marker in two reads in a row; their pids. One read
   * is not enough: while a process execs, its environ cannot be read for a moment, so it drops out of a census.
   */
  static List<Long> awaitRun(String runId, int count) {
    AtomicReference<List<Long>> last = new AtomicReference<>(List.of());
    Waits.until(count + " processes of run " + runId, Duration.ofSeconds(10), () -> {
      List<Long> now = carrying(ProcessGroup.RUN_VARIABLE, runId).stream().sorted().toList();
      List<Long> before = last.getAndSet(now);
      return now.size() == count && now.equals(before);
    });
    return last.get();
  }

  /** Waits until none of {@code pids} is alive; fails naming those left. */
  static void awaitGone(List<Long> pids) {
    Waits.until("processes " + pids + " to end", Duration.ofSeconds(10), () -> pids.stream().noneMatch(Census::alive));
  }
}
