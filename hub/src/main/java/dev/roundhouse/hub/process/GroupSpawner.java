package dev.roundhouse.hub.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

/**
 * Starts a command in a session and process group of its own through util-linux {@code setsid}: the JVM's
 * child is never a group leader, so {@code setsid} calls setsid(2) and execs in the same process, and the
 * pid Java knows is the group's leader (pid = pgid = sid). stdin is /dev/null; stdout and stderr are pipes.
 * Every process started gets {@code ROUNDHOUSE_RUN} (a random value) in its environment, which descendants
 * inherit even when they leave the group. Stateless; thread-safe.
 */
public final class GroupSpawner {
  private static final String SETSID = Binaries.SETSID.orElse(null);

  private GroupSpawner() {}

  /** The started leader and its record (not yet journaled). */
  public record Spawned(Process process, ProcessRecord record) {}

  /** Starts {@code argv} for {@code owner} (such as {@code service:web}) with {@code env} added to the hub's. */
  public static Spawned spawn(String owner, List<String> argv, Path cwd, Map<String, String> env, Clock clock) {
    if (SETSID == null) {
      throw new ProcessException("setsid (util-linux) is not installed; Roundhouse needs it to start "
          + owner + " in a process group of its own");
    }
    if (!Files.isDirectory(cwd)) {
      throw new ProcessException("the working directory " + cwd + " of " + owner + " does not exist");
    }
    String runId = UUID.randomUUID().toString();
    List<String> command = new ArrayList<>();
    command.add(SETSID);
    command.addAll(argv);
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(cwd.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().putAll(env);
    builder.environment().put(ProcessGroup.RUN_VARIABLE, runId);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new ProcessException("cannot start " + owner + " (" + String.join(" ", argv) + "): " + e.getMessage(), e);
    }
    long pid = process.pid();
    awaitExec(process, pid);
    long startTicks = ProcFs.stat(pid).map(ProcFs.Stat::startTicks).orElse(0L);
    ProcessRecord record = new ProcessRecord(owner, pid, pid, startTicks, ProcFs.bootId(),
        cmdlineOr(pid, argv), runId, clock.instant());
    return new Spawned(process, record);
  }

  /** Re-reads the leader's command line (it changes when the leader execs). */
  public static ProcessRecord refreshed(ProcessRecord record) {
    List<String> cmdline = ProcFs.cmdline(record.pid());
    Optional<ProcFs.Stat> stat = ProcFs.stat(record.pid());
    if (cmdline.isEmpty() || stat.isEmpty() || stat.get().startTicks() != record.startTicks()
        || cmdline.equals(record.cmdline())) {
      return record;
    }
    return new ProcessRecord(record.owner(), record.pid(), record.pgid(), record.startTicks(), record.bootId(),
        cmdline, record.runId(), record.startedAt(), record.cgroup());
  }

  /**
   * Waits (briefly, polling /proc: the OS gives no event for it) until setsid has made the group and exec'd,
   * so the recorded command line is the program's and a stop right after a start finds the group.
   */
  private static void awaitExec(Process process, long pid) {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (process.isAlive() && System.nanoTime() - deadline < 0) {
      Optional<ProcFs.Stat> stat = ProcFs.stat(pid);
      List<String> cmdline = ProcFs.cmdline(pid);
      if (stat.isPresent() && stat.get().pgid() == pid && !cmdline.isEmpty() && !cmdline.get(0).equals(SETSID)) {
        return;
      }
      LockSupport.parkNanos(200_000);
    }
  }

  private static List<String> cmdlineOr(long pid, List<String> argv) {
    List<String> cmdline = ProcFs.cmdline(pid);
    return cmdline.isEmpty() ? argv : cmdline;
  }
}
