package dev.roundhouse.drivers.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Process groups on Linux: children start under {@code setsid} (which, run from a JVM that is not a group
 * leader, execs in place, so the child's pid is its group id) and are signalled as a group, so a CLI's own
 * children (shells, MCP servers, language servers) go with it. Stateless; thread-safe.
 */
public final class ProcessGroups {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessGroups.class);
  private static final Path SETSID = findOnPath("setsid");
  private static final Path KILL = findOnPath("kill");

  private ProcessGroups() {}

  /** {@code command} prefixed with {@code setsid} where it exists, so it starts a process group of its own. */
  public static List<String> inOwnGroup(List<String> command) {
    if (SETSID == null) {
      return List.copyOf(command);
    }
    List<String> wrapped = new ArrayList<>(command.size() + 1);
    wrapped.add(SETSID.toString());
    wrapped.addAll(command);
    return wrapped;
  }

  /** True when children get process groups of their own here (Linux with util-linux). */
  public static boolean supported() {
    return SETSID != null && KILL != null;
  }

  /**
   * Sends {@code signal} (such as {@code TERM}, {@code KILL}) to the process group {@code pgid}. Linux does
   * not hand out a group's id as a new pid while the group has members, so this reaches only the child's
   * own processes. Returns false when the group is gone (or signals cannot be sent here).
   */
  public static boolean signalGroup(long pgid, String signal) {
    if (!supported()) {
      return false;
    }
    try {
      Process kill =
          new ProcessBuilder(KILL.toString(), "-" + signal, "--", "-" + pgid)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!kill.waitFor(5, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        return false;
      }
      return kill.exitValue() == 0;
    } catch (IOException e) {
      LOG.warn("could not signal process group {}: {}", pgid, e.getMessage());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Kills a child and everything it started: the process group first (it also holds children that were
   * reparented), then each descendant the JDK can see (one that left the group), then the process.
   */
  public static void killTree(ProcessHandle process) {
    List<ProcessHandle> descendants = process.descendants().toList();
    signalGroup(process.pid(), "KILL");
    descendants.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  /** The first executable named {@code program} on {@code PATH}, or null. */
  public static Path findOnPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String folder : path.split(File.pathSeparator)) {
      if (folder.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(folder, program);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
