package dev.roundhouse.hub.process;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends what a crashed hub left behind, from the records its {@link ProcessJournal} kept, and never kills a
 * process that only reuses a recorded pid. A recorded leader is trusted (and its whole group ended) only
 * if it is still the same process: same boot, same start time (field 22 of /proc/pid/stat), and either the
 * same command line or the record's {@code ROUNDHOUSE_RUN} value in its environment (the command line alone
 * is not enough: a leader that exec'd, such as {@code setsid} → a version-manager shim → {@code python3},
 * changes it). Otherwise only processes carrying that run value are ended: a random value no other process
 * has. Stateless; thread-safe.
 */
public final class ProcessReaper {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessReaper.class);

  private ProcessReaper() {}

  /** Whether the record's leader is alive and still the process that was recorded. */
  public static boolean stillRunning(ProcessRecord record) {
    return identify(record) == Identity.SAME;
  }

  /** Reaps each record in turn; {@code grace} is how long SIGTERM is given before SIGKILL. */
  public static List<ReapResult> reap(Collection<ProcessRecord> records, Duration grace) {
    List<ReapResult> results = new ArrayList<>();
    for (ProcessRecord record : records) {
      ReapResult result = reapOne(record, grace);
      if (result.outcome() != ReapResult.Outcome.GONE) {
        LOG.info("{}", result.message());
      }
      results.add(result);
    }
    return results;
  }

  private static ReapResult reapOne(ProcessRecord record, Duration grace) {
    String who = record.owner() + " (pid " + record.pid() + ", " + String.join(" ", record.cmdline()) + ")";
    if (!record.bootId().equals(ProcFs.bootId())) {
      return new ReapResult(record, ReapResult.Outcome.GONE, List.of(), who + " was recorded before the last reboot");
    }
    Identity identity = identify(record);
    ProcessGroup group = new ProcessGroup(record, identity == Identity.SAME);
    List<Long> found = group.members().stream().map(ProcFs.Stat::pid).toList();
    if (found.isEmpty()) {
      return identity == Identity.RECYCLED
          ? new ReapResult(record, ReapResult.Outcome.RECYCLED, List.of(),
              who + ": pid " + record.pid() + " now belongs to another process, which was left alone")
          : new ReapResult(record, ReapResult.Outcome.GONE, List.of(), who + " had already ended");
    }
    List<Long> left = group.terminate("TERM", grace);
    String message = "reaped " + found.size() + " leftover process(es) of " + who
        + (identity == Identity.RECYCLED ? "; its pid now belongs to another process, which was left alone" : "")
        + (left.isEmpty() ? "" : "; still alive: " + left);
    return new ReapResult(record, ReapResult.Outcome.KILLED, found, message);
  }

  enum Identity { SAME, GONE, RECYCLED }

  static Identity identify(ProcessRecord record) {
    if (!record.bootId().equals(ProcFs.bootId())) {
      return Identity.GONE;
    }
    Optional<ProcFs.Stat> stat = ProcFs.stat(record.pid());
    if (stat.isEmpty() || stat.get().zombie()) {
      return Identity.GONE;
    }
    if (stat.get().startTicks() != record.startTicks()) {
      return Identity.RECYCLED;
    }
    boolean sameCommand = ProcFs.cmdline(record.pid()).equals(record.cmdline());
    boolean marked = ProcFs.environContains(record.pid(), ProcessGroup.RUN_VARIABLE + "=" + record.runId());
    return sameCommand || marked ? Identity.SAME : Identity.RECYCLED;
  }
}
