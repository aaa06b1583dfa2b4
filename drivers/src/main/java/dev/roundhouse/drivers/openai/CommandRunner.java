package dev.roundhouse.drivers.openai;

import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import dev.roundhouse.drivers.process.ProcessGroups;
import dev.roundhouse.hub.process.ProcessLauncher;

/**
 * Runs the model's shell commands: {@code bash -c} in the working directory, started through the turn's
 * {@link ProcessLauncher} (a process group of its own, the turn's run marker and cgroup, a parent-death signal:
 * see {@code docs/processes.md}), stdin from {@code /dev/null}, stdout and stderr merged and capped. On a
 * timeout or a stop the whole tree is killed: the process group, and every descendant the JDK can see.
 * When the command exits, what it left running in its group is killed too, so a stray background job
 * neither outlives the turn nor holds the output pipe open; one that left the group with {@code setsid} is
 * killed with the rest of the turn's processes when the turn ends.
 *
 * <p>The command's environment is the hub's minus every variable that holds the endpoint's key, so
 * {@code env} cannot print it.
 *
 * <p>Thread-safe: {@link #stopAll()} may come from any thread while {@link #run} blocks in another. Threads:
 * one virtual thread per running command reads its output.
 */
final class CommandRunner {
  private static final Duration EXIT_GRACE = Duration.ofSeconds(2);

  /**
   * How a command ended.
   *
   * @param exitCode the exit status, or -1 when it was killed
   * @param output what it printed (stdout and stderr together), capped
   * @param timedOut killed because it ran past its timeout
   * @param stopped killed because the turn was stopped
   */
  record Outcome(int exitCode, String output, boolean timedOut, boolean stopped) {}

  private final Set<String> hiddenVariables;
  private final Secret key;
  private final int maxOutputChars;
  private final Set<Process> running = ConcurrentHashMap.newKeySet();
  private volatile boolean stopped;

  /**
   * @param hiddenVariables environment variables left out of the command's environment
   * @param key the endpoint's key, or null: any variable whose value holds it is left out as well
   * @param maxOutputChars the most output kept (the start and the end of it)
   */
  private final Map<String, String> variables;
  /** The turn's: every command runs under its marker and cgroup, so the turn's end kills what it left. */
  private final ProcessLauncher launcher;

  CommandRunner(Set<String> hiddenVariables, Secret key, int maxOutputChars) {
    this(Map.of(), hiddenVariables, key, maxOutputChars, ProcessLauncher.ownGroup());
  }

  /** @param variables added to every command's environment (the task's {@code PORT}, say), before the hidden ones are removed */
  CommandRunner(Map<String, String> variables, Set<String> hiddenVariables, Secret key, int maxOutputChars,
      ProcessLauncher launcher) {
    this.launcher = launcher;
    this.variables = Map.copyOf(variables);
    this.hiddenVariables = Set.copyOf(hiddenVariables);
    this.key = key;
    this.maxOutputChars = maxOutputChars;
  }

  /**
   * Runs {@code command} in {@code directory}, passing each piece of output that fits the cap to
   * {@code onOutput} as it arrives (on the reader thread), and blocks until it ends, times out or is stopped.
   */
  Outcome run(Path directory, String command, Duration timeout, Consumer<String> onOutput) throws IOException, InterruptedException {
    if (stopped) {
      return new Outcome(-1, "", false, true);
    }
    ProcessBuilder builder =
        new ProcessBuilder(List.of("bash", "-c", command))
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Map<String, String> environment = builder.environment();
    environment.putAll(variables);
    environment.keySet().removeAll(hiddenVariables);
    if (key != null) {
      environment.values().removeIf(key::occursIn);
    }
    Process process = launcher.start(builder);
    running.add(process);
    try {
      if (stopped) {
        killTree(process);
      }
      OutputCapture capture = new OutputCapture(maxOutputChars);
      Thread reader = Thread.ofVirtual().name("openai-command-output-" + process.pid()).start(() -> read(process, capture, onOutput));
      boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!exited) {
        killTree(process);
        process.waitFor(5, TimeUnit.SECONDS);
      } else {
        killGroup(process.pid());
      }
      if (!reader.join(EXIT_GRACE)) {
        killTree(process);
        reader.join(EXIT_GRACE);
      }
      boolean wasStopped = stopped;
      int exitCode = !exited || wasStopped ? -1 : process.exitValue();
      return new Outcome(exitCode, capture.text(), !exited && !wasStopped, wasStopped);
    } catch (InterruptedException e) {
      killTree(process);
      throw e;
    } finally {
      running.remove(process);
    }
  }

  /** Kills every running command, and refuses new ones. Safe from any thread; returns at once. */
  void stopAll() {
    stopped = true;
    for (Process process : running) {
      killTree(process);
    }
  }

  private static void read(Process process, OutputCapture capture, Consumer<String> onOutput) {
    char[] buffer = new char[8192];
    boolean forwarding = true;
    try (Reader reader = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
      int count;
      while ((count = reader.read(buffer)) >= 0) {
        String shown = capture.append(new String(buffer, 0, count));
        if (forwarding && !shown.isEmpty()) {
          try {
            onOutput.accept(shown);
          } catch (RuntimeException e) {
            // The turn was stopped, say: keep draining so the command is not blocked on a full pipe.
            forwarding = false;
          }
        }
      }
    } catch (IOException e) {
      // The pipe closed under us (the process was killed): what was read is kept.
    }
  }

  private static void killTree(Process process) {
    ProcessGroups.killTree(process.toHandle());
  }

  private static void killGroup(long pgid) {
    ProcessGroups.signalGroup(pgid, "KILL");
  }
}
