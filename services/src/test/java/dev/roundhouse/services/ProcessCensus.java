package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcFs;
import dev.roundhouse.hub.process.ProcessGroup;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Counts, from /proc, what the engine's processes left behind. Stateless. */
final class ProcessCensus {
  private ProcessCensus() {}

  /** Live (not zombie) processes whose environment carries one of these run ids. */
  static List<Long> alive(Collection<String> runIds) {
    List<Long> found = new ArrayList<>();
    for (ProcFs.Stat stat : ProcFs.all()) {
      if (stat.zombie()) {
        continue;
      }
      for (String runId : runIds) {
        if (ProcFs.environContains(stat.pid(), ProcessGroup.RUN_VARIABLE + "=" + runId)) {
          found.add(stat.pid());
        }
      }
    }
    return found;
  }

  /** Processes in any state (zombies included) in one of these process groups. */
  static List<ProcFs.Stat> inGroups(Collection<Long> pgids) {
    return ProcFs.all().stream().filter(stat -> pgids.contains(stat.pgid())).toList();
  }

  /** Zombies whose parent is this JVM: children nobody reaped. */
  static List<ProcFs.Stat> zombieChildren() {
    long self = ProcessHandle.current().pid();
    return ProcFs.all().stream().filter(stat -> stat.zombie() && stat.ppid() == self).toList();
  }

  static boolean alive(long pid) {
    return ProcFs.stat(pid).filter(stat -> !stat.zombie()).isPresent();
  }

  /** Waits (polling /proc until the deadline) for the groups to be empty; what is left. */
  static List<ProcFs.Stat> awaitNoneInGroups(Collection<Long> pgids, java.time.Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<ProcFs.Stat> left = inGroups(pgids);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
      left = inGroups(pgids);
    }
    return left;
  }

  /** Zombies in these groups that were handed to init (their parent died before reaping them). */
  static List<ProcFs.Stat> zombiesLeftToInit(Collection<Long> pgids) {
    return inGroups(pgids).stream().filter(stat -> stat.zombie() && stat.ppid() == 1).toList();
  }

  private static Boolean initReaps;

  /**
   * Whether PID 1 reaps orphans, as every init does (systemd, tini, docker --init); a container whose PID 1
   * is a program that never waits keeps them forever, whoever made them. The init of these build VMs reaps
   * lazily (seconds later), hence the waits. Probed once with a real orphan.
   */
  static synchronized boolean initReapsOrphans() {
    if (initReaps == null) {
      try {
        Process parent = new ProcessBuilder("/bin/sh", "-c", "sleep 0 & echo $!").start();
        long orphan = Long.parseLong(new String(parent.getInputStream().readAllBytes()).trim());
        parent.waitFor();
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (ProcFs.stat(orphan).isPresent() && System.nanoTime() < deadline) {
          java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
        }
        initReaps = ProcFs.stat(orphan).isEmpty();
      } catch (java.io.IOException | InterruptedException e) {
        throw new IllegalStateException("cannot probe whether init reaps orphans", e);
      }
    }
    return initReaps;
  }
}
