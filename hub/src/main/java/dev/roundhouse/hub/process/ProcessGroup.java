package dev.roundhouse.hub.process;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * The processes of one run, and how they are ended. Members are the processes whose process group is one of
 * the trusted groups (a recorded group whose leader is ours or proved to be) and, always, every process whose
 * environment carries the run's {@code ROUNDHOUSE_RUN} value: that catches descendants that called
 * {@code setsid} and left the group, which a group signal misses.
 *
 * <p>Ending: the first signal goes to the whole group (as a terminal's Ctrl-C does) and SIGTERM to the
 * escaped; after the grace period, SIGKILL goes to what is left, deepest descendants first so that a
 * parent still alive can reap its children rather than leave zombies to init. The grace period is real
 * time: the OS cannot notify the end of a process that is not our child, so this polls /proc.
 *
 * <p>Immutable; thread-safe (each call works on a fresh /proc snapshot).
 */
public final class ProcessGroup {
  /** The variable every process of a run carries, with the run's random id as its value. */
  public static final String RUN_VARIABLE = "ROUNDHOUSE_RUN";

  private final String marker;
  private final Set<Long> trustedGroups;

  /** The record's run; its process group too when {@code groupTrusted} (the leader is ours or proved to be). */
  public ProcessGroup(ProcessRecord record, boolean groupTrusted) {
    this(record.runId(), groupTrusted ? Set.of(record.pgid()) : Set.of());
  }

  ProcessGroup(String runId, Set<Long> trustedGroups) {
    this(RUN_VARIABLE, runId, trustedGroups);
  }

  /** Every process whose environment holds {@code variable=value}, and the trusted groups' members. */
  ProcessGroup(String variable, String value, Set<Long> trustedGroups) {
    this.marker = variable + "=" + value;
    this.trustedGroups = Set.copyOf(trustedGroups);
  }

  /** The live (not zombie) members now, found by group and by the run marker. */
  public List<ProcFs.Stat> members() {
    long self = ProcessHandle.current().pid();
    List<ProcFs.Stat> members = new ArrayList<>();
    for (ProcFs.Stat stat : ProcFs.all()) {
      if (stat.zombie() || stat.pid() == self) {
        continue;
      }
      if (trustedGroups.contains(stat.pgid()) || ProcFs.environContains(stat.pid(), marker)) {
        members.add(stat);
      }
    }
    return members;
  }

  /** SIGKILL to every member at once (the trusted groups, then the escaped deepest first); what is left. */
  List<Long> kill() {
    List<ProcFs.Stat> members = members();
    if (members.isEmpty()) {
      return List.of();
    }
    trustedGroups.forEach(pgid -> Signals.group("KILL", pgid));
    killLeavesFirst(alive(members));
    awaitGone(members, Duration.ofSeconds(5));
    return finalSweep();
  }

  /**
   * Sends {@code firstSignal} (TERM, or HUP for a terminal), waits up to {@code grace} for every member to
   * go, then kills what is left.
   *
   * @return the pids still alive at the end (empty unless a process is stuck in the kernel)
   */
  public List<Long> terminate(String firstSignal, Duration grace) {
    List<ProcFs.Stat> members = members();
    if (members.isEmpty()) {
      return List.of();
    }
    trustedGroups.forEach(pgid -> Signals.group(firstSignal, pgid));
    for (ProcFs.Stat member : members) {
      if (!trustedGroups.contains(member.pgid())) {
        Signals.process(member.pid(), member.startTicks(), false);
      }
    }
    if (awaitGone(members, grace)) {
      return finalSweep();
    }
    killLeavesFirst(alive(members));
    trustedGroups.forEach(pgid -> Signals.group("KILL", pgid));
    awaitGone(members, Duration.ofSeconds(5));
    return finalSweep();
  }

  /** Catches anything forked between the first snapshot and the signals. */
  private List<Long> finalSweep() {
    List<ProcFs.Stat> late = members();
    if (late.isEmpty()) {
      return List.of();
    }
    killLeavesFirst(late);
    trustedGroups.forEach(pgid -> Signals.group("KILL", pgid));
    awaitGone(late, Duration.ofSeconds(5));
    return members().stream().map(ProcFs.Stat::pid).toList();
  }

  static void killLeavesFirst(List<ProcFs.Stat> members) {
    Map<Long, ProcFs.Stat> byPid = members.stream().collect(Collectors.toMap(ProcFs.Stat::pid, s -> s));
    Map<Long, Integer> depth = new HashMap<>();
    for (ProcFs.Stat member : members) {
      int d = 0;
      for (ProcFs.Stat up = member; byPid.containsKey(up.ppid()) && d < members.size(); up = byPid.get(up.ppid())) {
        d++;
      }
      depth.put(member.pid(), d);
    }
    Map<Integer, List<ProcFs.Stat>> levels = members.stream()
        .collect(Collectors.groupingBy(m -> depth.get(m.pid())));
    levels.keySet().stream().sorted(Comparator.reverseOrder()).forEach(level -> {
      List<ProcFs.Stat> ofLevel = levels.get(level);
      ofLevel.forEach(m -> Signals.process(m.pid(), m.startTicks(), true));
      // A short wait lets a parent that waits for its children reap them before it is killed itself.
      awaitGone(ofLevel, Duration.ofMillis(200));
    });
  }

  /** Polls until none of {@code watched} is alive (same start time, not a zombie), or the deadline. */
  public static boolean awaitGone(List<ProcFs.Stat> watched, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = 1_000_000;
    while (true) {
      if (alive(watched).isEmpty()) {
        return true;
      }
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      LockSupport.parkNanos(pause);
      pause = Math.min(pause * 2, 50_000_000);
    }
  }

  static List<ProcFs.Stat> alive(List<ProcFs.Stat> watched) {
    List<ProcFs.Stat> alive = new ArrayList<>();
    for (ProcFs.Stat stat : watched) {
      ProcFs.stat(stat.pid())
          .filter(now -> now.startTicks() == stat.startTicks() && !now.zombie())
          .ifPresent(alive::add);
    }
    return alive;
  }
}
