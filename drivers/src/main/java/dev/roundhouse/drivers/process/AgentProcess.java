package dev.roundhouse.drivers.process;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.process.ProcessLauncher;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A running agent CLI: started in a process group of its own with exactly the environment given, spoken to
 * one line at a time on stdin, heard one line at a time on stdout (on a virtual thread of its own), with the
 * last lines of stderr kept for error messages. {@link #terminate} ends the whole group, so nothing it
 * started outlives it.
 *
 * <p>Thread-safe: {@link #send} may be called from any thread (lines are never interleaved: one lock is held
 * for each write to stdin), and {@link #terminate} from any thread while another reads; a second lock guards
 * the kept stderr lines.
 */
public final class AgentProcess implements AutoCloseable {
  private static final int STDERR_LINES = 40;
  private static final Duration KILL_WAIT = Duration.ofSeconds(5);

  private final Process process;
  private final String name;
  /** Held for one write to (or the close of) the child's stdin, a stream rather than a field of ours. */
  private final ReentrantLock stdinLock = Locks.tracked(AgentProcess.class.getSimpleName() + " stdin");

  private final ReentrantLock stderrLock = Locks.tracked(AgentProcess.class.getSimpleName() + " stderr tail");

  @GuardedBy("stderrLock")
  private final ArrayDeque<String> stderrTail = new ArrayDeque<>();
  private final Thread stderrReader;

  private AgentProcess(Process process, String name) {
    this.process = process;
    this.name = name;
    this.stderrReader = Thread.ofVirtual().name(name + "-stderr-" + process.pid()).start(this::drainStderr);
  }

  /**
   * Starts {@code command} in {@code directory} with exactly {@code environment}.
   *
   * @param name a short name for threads and messages, such as {@code claude}
   * @throws IOException when the program cannot be started (not installed, not executable)
   */
  public static AgentProcess start(String name, List<String> command, Path directory, Map<String, String> environment) throws IOException {
    return start(name, command, directory, environment, ProcessLauncher.ownGroup());
  }

  /**
   * As {@link #start(String, List, Path, Map)}, started through {@code launcher}: a turn's
   * ({@link dev.roundhouse.hub.spi.TurnContext#processes}), so that the turn's end kills whatever the CLI left.
   */
  public static AgentProcess start(String name, List<String> command, Path directory, Map<String, String> environment,
      ProcessLauncher launcher) throws IOException {
    String program = command.get(0);
    if (program.contains("/") ? !Files.isExecutable(Path.of(program)) : findOn(environment.get("PATH"), program) == null) {
      // checked here: under setsid, a missing program would only show as setsid's exit status
      throw new IOException("cannot start " + name + ": " + program
          + (program.contains("/") ? " is not an executable file" : " is not on PATH"));
    }
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    return new AgentProcess(launcher.start(builder), name);
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Reads stdout line by line on a new virtual thread, passing each line to {@code onLine}, then calls
   * {@code onEnd} once stdout closes (the process exited or was killed). A line handler that throws stops
   * the forwarding but not the draining, so the child never blocks on a full pipe.
   */
  public Thread readLines(Consumer<String> onLine, Runnable onEnd) {
    return Thread.ofVirtual().name(name + "-stdout-" + process.pid()).start(() -> {
      boolean forwarding = true;
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = reader.readLine()) != null) {
          if (forwarding) {
            try {
              onLine.accept(line);
            } catch (RuntimeException e) {
              forwarding = false;
            }
          }
        }
      } catch (IOException e) {
        // the pipe closed under us: the process is gone
      } finally {
        onEnd.run();
      }
    });
  }

  /**
   * Writes one line (a newline is added) and flushes it.
   *
   * @throws UncheckedIOException when stdin is closed (the process exited)
   */
  public void send(String line) {
    stdinLock.lock();
    try {
      OutputStream in = process.getOutputStream();
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(name + " no longer takes input (it exited)", e);
    } finally {
      stdinLock.unlock();
    }
  }

  /** Closes stdin: a CLI that reads its messages there ends its session. */
  public void closeStdin() {
    stdinLock.lock();
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // already closed
    } finally {
      stdinLock.unlock();
    }
  }

  /** Waits up to {@code timeout} for the process to exit; its exit code, or empty if it still runs. */
  public OptionalInt awaitExit(Duration timeout) throws InterruptedException {
    if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      return OptionalInt.of(process.exitValue());
    }
    return OptionalInt.empty();
  }

  /**
   * Ends the process and its group: SIGTERM to the group, up to {@code grace} for it to exit, then SIGKILL
   * to the group and every descendant. Also reaps what the group left behind when the process itself had
   * already exited. Safe to call more than once and from any thread; returns once the process is gone.
   */
  public void terminate(Duration grace) {
    List<ProcessHandle> descendants = process.descendants().toList();
    if (process.isAlive()) {
      ProcessGroups.signalGroup(process.pid(), "TERM");
      try {
        process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    ProcessGroups.signalGroup(process.pid(), "KILL");
    descendants.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@link #terminate} with a two-second grace. */
  @Override
  public void close() {
    closeStdin();
    terminate(Duration.ofSeconds(2));
  }

  /** The last lines the process wrote to stderr, joined with newlines (for error messages). */
  public String stderrTail() {
    stderrLock.lock();
    try {
      return String.join("\n", stderrTail);
    } finally {
      stderrLock.unlock();
    }
  }

  /** The process's resident memory in KiB (its own, not its children's), or -1 when unknown. */
  public long residentKib() {
    return residentKib(process.pid());
  }

  private static Path findOn(String path, String program) {
    if (path == null) {
      return null;
    }
    for (String folder : path.split(java.io.File.pathSeparator)) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return Path.of(folder, program);
      }
    }
    return null;
  }

  /** The resident memory of process {@code pid} in KiB, from {@code /proc}, or -1 when unknown. */
  public static long residentKib(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux, or the process is gone
    }
    return -1;
  }

  /** Waits (up to {@code timeout}) for stderr to be read to its end, so {@link #stderrTail} is complete. */
  public void awaitStderr(Duration timeout) throws InterruptedException {
    stderrReader.join(timeout);
  }

  private void drainStderr() {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        String kept = line.length() > 500 ? line.substring(0, 500) + "…" : line;
        stderrLock.lock();
        try {
          if (stderrTail.size() == STDERR_LINES) {
            stderrTail.removeFirst();
          }
          stderrTail.addLast(kept);
        } finally {
          stderrLock.unlock();
        }
      }
    } catch (IOException e) {
      // closed: the process is gone
    }
  }
}
