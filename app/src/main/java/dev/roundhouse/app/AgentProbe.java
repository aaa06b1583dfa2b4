package dev.roundhouse.app;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Finds an agent CLI ({@code claude}, {@code codex}, {@code gemini}) on {@code PATH} and asks it for
 * {@code --version}, giving up after a deadline: the process and its descendants are then killed. A missing
 * CLI is a warning, never a failure. Stateless; thread-safe (each probe has its own process and reader
 * thread).
 */
final class AgentProbe {
  private AgentProbe() {}

  /** The first executable file named {@code command} in the {@code PATH} of {@code env}. */
  static Optional<Path> find(String command, Map<String, String> env) {
    String path = env.getOrDefault("PATH", "");
    for (String directory : path.split(File.pathSeparator)) {
      if (directory.isBlank()) {
        continue;
      }
      try {
        Path candidate = Path.of(directory, command);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      } catch (InvalidPathException e) {
        // a malformed PATH entry cannot hold the command
      }
    }
    return Optional.empty();
  }

  /** Checks one agent CLI, run with {@code env} as its whole environment. */
  static Check probe(String command, Map<String, String> env, Duration timeout) {
    Optional<Path> found = find(command, env);
    if (found.isEmpty()) {
      return Check.warn(command, "not installed (no " + command + " on PATH)");
    }
    Path executable = found.get();
    ProcessBuilder builder = new ProcessBuilder(executable.toString(), "--version").redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      return Check.warn(command, executable + ": cannot run it: " + e.getMessage());
    }
    try {
      process.getOutputStream().close();
      CompletableFuture<String> firstLine = new CompletableFuture<>();
      Thread.ofVirtual().name("doctor-" + command).start(() -> firstLine.complete(readFirstLine(process)));
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        kill(process);
        return Check.warn(command, executable + ": did not answer --version within " + describe(timeout));
      }
      String line = firstLine.get(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
      if (process.exitValue() != 0) {
        return Check.warn(command, executable + ": --version exited " + process.exitValue() + (line.isEmpty() ? "" : ": " + line));
      }
      return Check.ok(command, executable + ": " + (line.isEmpty() ? "(no version printed)" : line));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill(process);
      return Check.warn(command, executable + ": interrupted while asking --version");
    } catch (ExecutionException | TimeoutException | IOException e) {
      kill(process);
      return Check.warn(command, executable + ": cannot read its --version output: " + e);
    }
  }

  private static String readFirstLine(Process process) {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String first = "";
      String line;
      while ((line = reader.readLine()) != null) {
        if (first.isEmpty() && !line.isBlank()) {
          first = Texts.abbreviate(line, 160);
        }
      }
      return first;
    } catch (IOException e) {
      return "";
    }
  }

  /** Kills the probe and its descendants and waits (briefly) until they are gone, so none is left behind. */
  private static void kill(Process process) {
    java.util.List<ProcessHandle> tree = new java.util.ArrayList<>(process.descendants().toList());
    tree.add(process.toHandle());
    tree.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle handle : tree) {
      try {
        handle.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        // gone or stuck: nothing more to do here
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static String describe(Duration timeout) {
    return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
  }
}
