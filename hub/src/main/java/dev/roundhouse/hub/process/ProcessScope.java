package dev.roundhouse.hub.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything started on behalf of one owner (a turn; a service's run or a terminal, opened through
 * {@link ProcessScopes}), and its end. Each child starts through a wrapper that,
 * in this order, moves it into the scope's cgroup (where {@link Containment} may make one), gives it a
 * session and process group of its own ({@code setsid}), and asks for SIGKILL when the hub dies
 * ({@code setpriv --pdeathsig KILL}, forked on {@link SpawnThread}); every child carries the scope's
 * {@code ROUNDHOUSE_RUN} value and the hub's {@code ROUNDHOUSE_HUB} in its environment, which descendants
 * inherit even when they leave the group. Each group is journaled when it starts. A program that makes its
 * own session (a PTY's shell) starts through {@link #startSessionLeader}, with the same wrappers but
 * {@code setsid}.
 *
 * <p>{@link #kill} ends every process of the scope at once: {@code cgroup.kill}, then SIGKILL to every
 * recorded group whose leader is still the recorded process and to every process carrying the run marker
 * (found in {@code /proc/<pid>/environ}). {@link #close} does that, removes the cgroup and erases the records.
 *
 * <p>Thread-safe: {@link #start} may run on several threads at once and {@link #kill} or {@link #close} on
 * another; a start that races a close kills what it started.
 */
public final class ProcessScope implements ProcessLauncher, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessScope.class);
  private final Containment.Mechanisms mechanisms;
  private final String hubId;
  private final String owner;
  private final String runId = UUID.randomUUID().toString();
  private final ProcessJournal journal;
  private final Clock clock;
  private final Path cgroup;
  private final Queue<ProcessRecord> records = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  ProcessScope(Containment.Mechanisms mechanisms, String hubId, String owner, ProcessJournal journal, Clock clock) {
    this.mechanisms = mechanisms;
    this.hubId = hubId;
    this.owner = owner;
    this.journal = journal;
    this.clock = clock;
    this.cgroup = mechanisms.cgroupDir().map(dir -> dir.resolve(runId)).orElse(null);
  }

  /** The value of {@code ROUNDHOUSE_RUN} every process of this scope carries. */
  public String runId() {
    return runId;
  }

  /** The scope's cgroup, when it has one. */
  public Optional<Path> cgroup() {
    return Optional.ofNullable(cgroup);
  }

  @Override
  public Process start(ProcessBuilder builder) throws IOException {
    List<String> command = builder.command();
    builder.environment().putAll(markers());
    return launch(command, true, wrapped -> {
      try {
        builder.command(wrapped);
        return builder.start();
      } finally {
        builder.command(command);
      }
    });
  }

  /**
   * Starts a program that a {@link ProcessBuilder} cannot start, and that becomes a session leader by itself: a
   * shell on a PTY, which pty4j forks as the leader of a new session with the PTY as its controlling terminal.
   * {@code starter} is given the command line to run (the wrappers, without {@code setsid}, then
   * {@code command}) and the markers to add to its environment; it is called on the forking thread that the
   * parent-death signal needs, and must fork there (pty4j's native {@code exec_pty} does). The group is
   * journaled like any other.
   */
  public <P extends Process> P startSessionLeader(List<String> command, Starter<P> starter) throws IOException {
    return launch(command, false, wrapped -> starter.start(wrapped, markers()));
  }

  /** Starts a session leader's command line with the scope's markers in its environment. */
  @FunctionalInterface
  public interface Starter<P extends Process> {
    P start(List<String> command, Map<String, String> markers) throws IOException;
  }

  /** The records of the groups started so far (one per start), oldest first. */
  public List<ProcessRecord> records() {
    return List.copyOf(records);
  }

  /** Starts the wrapped command line. */
  @FunctionalInterface
  private interface Wrapped<P extends Process> {
    P start(List<String> wrapped) throws IOException;
  }

  private Map<String, String> markers() {
    return Map.of(ProcessGroup.RUN_VARIABLE, runId, Containment.HUB_VARIABLE, hubId);
  }

  private <P extends Process> P launch(List<String> command, boolean setsid, Wrapped<P> spawn)
      throws IOException {
    if (closed.get()) {
      throw new IOException(owner + " has ended: nothing more is started for it");
    }
    if (cgroup != null) {
      Files.createDirectories(cgroup);
    }
    List<List<String>> stages = new ArrayList<>();
    List<String> wrapped = wrap(command, stages, setsid);
    SpawnThread.Spawn<P> start = () -> spawn.start(wrapped);
    P process = mechanisms.parentDeath() ? SpawnThread.start(start, command.get(0)) : start.start();
    long pid = process.pid();
    // The line seen at the exec, not one read again later: by then the command may have exec'd something else.
    List<String> cmdline = awaitExec(process, command, stages, !setsid || Binaries.SETSID.isPresent())
        .orElseGet(() -> cmdlineOr(pid, command));
    ProcessRecord record = new ProcessRecord(owner, pid, pid, ProcFs.stat(pid).map(ProcFs.Stat::startTicks).orElse(0L),
        ProcFs.bootId(), cmdline, runId, clock.instant(), cgroup == null ? null : cgroup.toString());
    records.add(record);
    journal.recorded(record);
    if (closed.get()) {
      kill();
    }
    return process;
  }

  /** Kills every process of the scope now (the scope stays open); the pids still alive after it, if any. */
  public List<Long> kill() {
    if (cgroup != null && Files.isDirectory(cgroup)) {
      try {
        Files.writeString(cgroup.resolve("cgroup.kill"), "1");
      } catch (IOException e) {
        // gone meanwhile: the marker sweep below still runs
      }
    }
    Set<Long> trusted = new HashSet<>();
    for (ProcessRecord record : records) {
      if (ProcessReaper.identify(record) == ProcessReaper.Identity.SAME) {
        trusted.add(record.pgid());
      }
    }
    return new ProcessGroup(runId, trusted).kill();
  }

  /** Kills what is left, removes the cgroup and erases the records. Safe to call more than once. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      kill();
      if (cgroup != null && !Cgroups.remove(cgroup, Duration.ofSeconds(5))) {
        LOG.warn("the cgroup {} of {} still has processes; the next boot kills them", cgroup, owner);
      }
    } catch (RuntimeException e) {
      // the records stay, so the next boot reaps what this could not end
      LOG.warn("could not end every process of {}: {}", owner, e.getMessage());
      return;
    }
    for (ProcessRecord record : records) {
      journal.erased(record);
    }
  }

  /**
   * The wrapped command line; {@code stages} gets each command line the child passes through before it is
   * {@code command} (the wrappers exec one another in the same process).
   */
  private List<String> wrap(List<String> command, List<List<String>> stages, boolean setsid) {
    List<String> wrapped = new ArrayList<>();
    List<Integer> starts = new ArrayList<>();
    if (cgroup != null && Binaries.SH.isPresent()) {
      starts.add(wrapped.size());
      wrapped.addAll(List.of(Binaries.SH.get(), "-c", Cgroups.JOIN + " exec \"$@\"", "sh", cgroup.resolve("cgroup.procs").toString()));
    }
    if (setsid && Binaries.SETSID.isPresent()) {
      starts.add(wrapped.size());
      wrapped.add(Binaries.SETSID.get());
    }
    if (mechanisms.parentDeath()) {
      starts.add(wrapped.size());
      wrapped.addAll(List.of(Binaries.SETPRIV.orElseThrow(), "--pdeathsig", "KILL", "--"));
    }
    wrapped.addAll(command);
    for (int start : starts) {
      stages.add(List.copyOf(wrapped.subList(start, wrapped.size())));
    }
    return wrapped;
  }

  /**
   * Waits (briefly, polling /proc: the OS gives no event for it) until the wrappers have exec'd the command,
   * so the record holds its command line and a kill right after a start finds its group. Returns the command line
   * it saw, or empty when it saw none in time (the process ended, or this is no Linux).
   */
  private static Optional<List<String>> awaitExec(Process process, List<String> command, List<List<String>> stages, boolean grouped) {
    if (!Files.isDirectory(ProcFs.PROC)) {
      return Optional.empty(); // not Linux: nothing to watch
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    List<String> args = command.subList(1, command.size());
    while (process.isAlive() && System.nanoTime() - deadline < 0) {
      List<String> cmdline = ProcFs.cmdline(process.pid());
      Optional<ProcFs.Stat> stat = ProcFs.stat(process.pid());
      // Ends with the arguments: a script's line is its interpreter's, with the script's path in front of them;
      // a line read in the middle of an exec may be anything, hence the length.
      boolean exec = cmdline.size() >= command.size() && !stages.contains(cmdline)
          && cmdline.subList(cmdline.size() - args.size(), cmdline.size()).equals(args);
      if (exec && stat.isPresent() && (!grouped || stat.get().pgid() == process.pid())) {
        return Optional.of(cmdline);
      }
      LockSupport.parkNanos(100_000);
    }
    return Optional.empty();
  }

  private static List<String> cmdlineOr(long pid, List<String> command) {
    List<String> cmdline = ProcFs.cmdline(pid);
    return cmdline.isEmpty() ? command : cmdline;
  }
}
