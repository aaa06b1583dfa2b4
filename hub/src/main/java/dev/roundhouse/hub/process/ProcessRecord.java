package dev.roundhouse.hub.process;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * What is kept about every process group the engine starts, so that a later boot can reap what a crash
 * left behind without ever killing a process that merely reuses the pid.
 *
 * @param owner the service or terminal that started it ("service:web", "terminal:3f2a…")
 * @param pid the group leader
 * @param pgid its process group (and session): equal to pid, since each group starts in its own session
 * @param startTicks field 22 of /proc/pid/stat: the leader's start time in clock ticks since boot
 * @param bootId /proc/sys/kernel/random/boot_id when it was started: start times restart with each boot
 * @param cmdline the leader's command line when it was recorded
 * @param runId the value of {@code ROUNDHOUSE_RUN} in its environment, which every descendant inherits
 * @param startedAt when it was started
 * @param cgroup the cgroup v2 folder its processes were put in, or null where the hub makes none
 */
public record ProcessRecord(
    String owner,
    long pid,
    long pgid,
    long startTicks,
    String bootId,
    List<String> cmdline,
    String runId,
    Instant startedAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String cgroup) {
  public ProcessRecord {
    cmdline = List.copyOf(cmdline);
  }

  /** A record of a group in no cgroup of its own (a service's, a terminal's). */
  public ProcessRecord(String owner, long pid, long pgid, long startTicks, String bootId, List<String> cmdline,
      String runId, Instant startedAt) {
    this(owner, pid, pgid, startTicks, bootId, cmdline, runId, startedAt, null);
  }
}
