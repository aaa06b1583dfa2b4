package dev.roundhouse.services.hub;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A hub in a JVM of its own that a test SIGKILLs ({@link CrashingHub}, {@link ContainedCrashingHub}). Nothing here
 * waits without a deadline: the child's {@code UP} line is awaited for a bounded time, and the child writes its
 * stderr to a file (named in every failure) rather than to the test JVM's, whose pipe Surefire reads until every
 * holder closes it. The child's side is {@link #main}: it halts when its body fails or the test JVM goes away, since
 * the hub's threads would otherwise keep a failed child alive forever. Not thread-safe: one test drives one child.
 */
final class ChildHub implements AutoCloseable {
  private static final Duration UP_WITHIN = Duration.ofMinutes(3);

  /** The child's body, run by {@link #main}. */
  interface Body {
    void run() throws Exception;
  }

  private final Process process;
  private final Path log;

  private ChildHub(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts {@code mainClass} with {@code args} on this JVM's class path; its stderr goes to {@code log}. */
  static ChildHub start(Class<?> mainClass, Path log, String... args) {
    List<String> command = new java.util.ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), mainClass.getName()));
    command.addAll(List.of(args));
    try {
      return new ChildHub(new ProcessBuilder(command).redirectError(log.toFile()).start(), log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The fields of the child's {@code UP ...} line after {@code UP}; fails naming the child's stderr if none comes. */
  String[] awaitUp() throws InterruptedException {
    CompletableFuture<String> up = CompletableFuture.supplyAsync(this::readUpLine,
        command -> Thread.ofPlatform().daemon().name("child-hub-stdout").start(command));
    try {
      String line = up.get(UP_WITHIN.toSeconds(), TimeUnit.SECONDS);
      if (line == null) {
        throw new AssertionError("the child hub exited (" + exitCode() + ") before it was up; its stderr:\n" + logTail());
      }
      return line.substring("UP ".length()).split(" ");
    } catch (TimeoutException e) {
      throw new AssertionError("the child hub was not up within " + UP_WITHIN + "; its stderr:\n" + logTail());
    } catch (ExecutionException e) {
      throw new AssertionError("reading the child hub's stdout failed", e.getCause());
    }
  }

  private String readUpLine() {
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line;
      do {
        line = out.readLine();
      } while (line != null && !line.startsWith("UP "));
      return line;
    } catch (IOException e) {
      return null; // the stream closed under us: the child was killed
    }
  }

  private String exitCode() {
    return process.isAlive() ? "still running" : "exit " + process.exitValue();
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /** SIGKILLs the child and waits for it to be gone. */
  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("the child hub " + process.pid() + " outlived SIGKILL by 30 s");
    }
  }

  /** The child's side: runs {@code body}, halting if it fails or if the parent JVM (the test) goes away. */
  static void main(Body body) {
    ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
    try {
      body.run();
    } catch (Throwable failure) {
      failure.printStackTrace();
      System.err.flush();
      Runtime.getRuntime().halt(2);
    }
  }
}
