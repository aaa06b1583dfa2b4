package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * {@code roundhouse} run as a real process: this JVM's {@code java} and class path, {@code Main}, and an
 * environment whose ROUNDHOUSE_HOME is the given home. stdout and stderr are read on virtual threads as
 * they come. Closing kills the process if it still runs. Thread-safe.
 */
final class RoundhouseProcess implements AutoCloseable {
  private static final String END = "\u0000end";

  private final Process process;
  private final BlockingQueue<String> errLines = new LinkedBlockingQueue<>();
  private final StringBuffer out = new StringBuffer();
  private final StringBuffer err = new StringBuffer();
  private final Thread outReader;
  private final Thread errReader;

  private RoundhouseProcess(Process process) {
    this.process = process;
    this.outReader = Thread.ofVirtual().start(() -> pump(process.getInputStream(), out, null));
    this.errReader = Thread.ofVirtual().start(() -> pump(process.getErrorStream(), err, errLines));
  }

  static RoundhouseProcess start(Path home, String... args) {
    return start(home, new byte[0], args);
  }

  /** Starts {@code roundhouse args} with exactly {@code stdin} on its standard input, which is then closed. */
  static RoundhouseProcess start(Path home, byte[] stdin, String... args) {
    ProcessBuilder builder = builder(home, List.of(), args);
    try {
      Process process = builder.start();
      try (OutputStream input = process.getOutputStream()) {
        input.write(stdin);
      }
      return new RoundhouseProcess(process);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts what {@code builder} (from {@link #builder}, its environment changed by the test) describes, stdin closed. */
  static RoundhouseProcess start(ProcessBuilder builder) {
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      return new RoundhouseProcess(process);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What starts {@code roundhouse args} in a JVM with {@code jvmOptions} (such as {@code -Xmx96m}), for a test
   * that drives the process's streams itself (an interactive stdio face).
   */
  static ProcessBuilder builder(Path home, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
    env.put("ROUNDHOUSE_HOME", home.toString());
    return builder;
  }

  /** Runs a command to its end and returns what it did. */
  static CliResult run(Path home, Duration timeout, String... args) {
    try (RoundhouseProcess process = start(home, args)) {
      int exit = process.awaitExit(timeout);
      return new CliResult(exit, process.out(), process.err());
    }
  }

  long pid() {
    return process.pid();
  }

  /** Waits for a stderr line matching {@code wanted} and returns it; fails with all of stderr if none comes. */
  String awaitErrLine(Predicate<String> wanted, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        String line = errLines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (line == null || line.equals(END)) {
          throw new AssertionError("no such stderr line within " + timeout + " (alive: " + process.isAlive() + "); stderr:\n" + err);
        }
        if (wanted.test(line)) {
          return line;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Waits for the process to end and for its output to be read; returns the exit status. */
  int awaitExit(Duration timeout) {
    try {
      assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
          .as("%s ends within %s; stderr so far:\n%s", process.info().commandLine().orElse("the process"), timeout, err)
          .isTrue();
      outReader.join(timeout);
      errReader.join(timeout);
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Sends SIGTERM. Through the handle: {@link Process#destroy()} would also close our ends of its pipes. */
  void terminate() {
    process.toHandle().destroy();
  }

  void kill() {
    process.destroyForcibly(); // SIGKILL
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String out() {
    return out.toString();
  }

  String err() {
    return err.toString();
  }

  private static void pump(InputStream stream, StringBuffer into, BlockingQueue<String> lines) {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      for (String line; (line = reader.readLine()) != null; ) {
        into.append(line).append('\n');
        if (lines != null) {
          lines.add(line);
        }
      }
    } catch (IOException e) {
      // the process ended
    } finally {
      if (lines != null) {
        lines.add(END);
      }
    }
  }

  @Override
  public void close() {
    kill(process);
  }

  /** Kills {@code process} if it still runs, and waits (up to 10 s) for it to end. */
  static void kill(Process process) {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
