package dev.roundhouse.hub.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * cgroup v2 as the hub uses it: a folder of its own ({@code roundhouse-<hub id>}) under the cgroup the hub
 * runs in, and in it one cgroup per scope (a turn), which its processes join before they exec, so every
 * descendant is in it whatever it does with its session, group or environment; {@code cgroup.kill} ends
 * them all at once. No controller is enabled (the hub limits nothing), so the "no internal processes" rule
 * does not apply and a delegated cgroup (a systemd user session's) works as well as the root.
 *
 * <p>{@link #detect} probes rather than guesses: it moves a real short-lived process into a probe cgroup.
 * Stateless but for the immutable result; thread-safe.
 */
final class Cgroups {
  /** Where the hub's cgroups go, or why there are none. */
  record Detected(Optional<Path> hubDir, String note) {}

  private Cgroups() {}

  /** Finds the cgroup v2 mount and the hub's own cgroup, makes {@code roundhouse-<hubId>} and probes it. */
  static Detected detect(String hubId) {
    Optional<Path> mount = mountPoint();
    if (mount.isEmpty()) {
      return new Detected(Optional.empty(), "no cgroup v2 file system is mounted");
    }
    Optional<String> own = ownPath();
    if (own.isEmpty()) {
      return new Detected(Optional.empty(), "this process is in no cgroup v2 (/proc/self/cgroup has no 0:: line)");
    }
    Path base = mount.get().resolve(own.get().substring(1));
    Path hubDir = base.resolve("roundhouse-" + hubId);
    Path probe = hubDir.resolve("probe-" + ProcessHandle.current().pid());
    try {
      Files.createDirectories(probe);
      if (!Files.exists(probe.resolve("cgroup.kill"))) {
        return new Detected(Optional.empty(), "the kernel has no cgroup.kill (Linux 5.14 or newer needed)");
      }
      Process joining = new ProcessBuilder("/bin/sh", "-c", JOIN + " exit 0", "sh", probe.resolve("cgroup.procs").toString())
          .redirectErrorStream(true).start();
      String said = new String(joining.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!joining.waitFor(10, TimeUnit.SECONDS) || joining.exitValue() != 0) {
        return new Detected(Optional.empty(), "cannot move a process into " + probe + ": " + said);
      }
      return new Detected(Optional.of(hubDir), "cgroup v2 at " + hubDir);
    } catch (IOException e) {
      return new Detected(Optional.empty(), "cannot create a cgroup under " + base + " (not delegated to this user?): " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Detected(Optional.empty(), "interrupted while probing cgroups");
    } finally {
      remove(probe, Duration.ofSeconds(1));
    }
  }

  /**
   * The shell text that moves the shell into the cgroup whose {@code cgroup.procs} is {@code $1} and drops
   * that argument; a failed move ends it with status 125 before anything runs uncontained.
   */
  static final String JOIN = "echo $$ > \"$1\" || exit 125; shift;";

  /** Kills every process in {@code dir} and, once it is empty (up to {@code timeout}), removes it. True when gone. */
  static boolean killAndRemove(Path dir, Duration timeout) {
    if (!Files.isDirectory(dir)) {
      return true;
    }
    try {
      Files.writeString(dir.resolve("cgroup.kill"), "1");
    } catch (IOException e) {
      // gone meanwhile, or no cgroup.kill: the marker sweep still runs
    }
    return remove(dir, timeout);
  }

  /** Removes an empty cgroup, waiting up to {@code timeout} for its last process to be reaped. */
  static boolean remove(Path dir, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = 200_000;
    while (true) {
      try {
        Files.deleteIfExists(dir);
        return true;
      } catch (IOException e) {
        // EBUSY while a process (a zombie not yet reaped, say) is still in it
      }
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      LockSupport.parkNanos(pause);
      pause = Math.min(pause * 2, 20_000_000);
    }
  }

  /** The pids in a cgroup now (zombies included until they are reaped). */
  static List<Long> members(Path dir) {
    List<Long> pids = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(dir.resolve("cgroup.procs"))) {
        if (!line.isBlank()) {
          pids.add(Long.parseLong(line.strip()));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // gone
    }
    return pids;
  }

  /** The cgroups a hub folder holds (what a crash left of earlier scopes). */
  static List<Path> children(Path hubDir) {
    List<Path> children = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(hubDir, Files::isDirectory)) {
      entries.forEach(children::add);
    } catch (IOException e) {
      // no such folder: nothing left
    }
    return children;
  }

  private static Optional<Path> mountPoint() {
    try {
      for (String line : Files.readAllLines(ProcFs.PROC.resolve("self/mountinfo"))) {
        int dash = line.indexOf(" - ");
        if (dash > 0 && line.substring(dash + 3).startsWith("cgroup2 ")) {
          return Optional.of(Path.of(line.split(" ")[4]));
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return Optional.empty();
  }

  private static Optional<String> ownPath() {
    try {
      for (String line : Files.readAllLines(ProcFs.PROC.resolve("self/cgroup"))) {
        if (line.startsWith("0::")) {
          return Optional.of(line.substring(3));
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return Optional.empty();
  }
}
