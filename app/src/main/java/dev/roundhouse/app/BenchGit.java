package dev.roundhouse.app;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code git} side of {@code roundhouse bench workspace}: builds its repositories fast with
 * {@code git fast-import} (one process streams every commit) and runs git commands as processes, timed, the way a
 * user's script would. Every git process runs without the user's global or system configuration, with a fixed
 * identity, so both sides of a comparison see the same repository settings.
 *
 * <p>Thread-safe: stateless.
 */
final class BenchGit {
  static final Map<String, String> ENVIRONMENT = Map.of("GIT_CONFIG_GLOBAL", "/dev/null", "GIT_CONFIG_NOSYSTEM", "1",
      "GIT_AUTHOR_NAME", "Bench", "GIT_AUTHOR_EMAIL", "bench@example.invalid",
      "GIT_COMMITTER_NAME", "Bench", "GIT_COMMITTER_EMAIL", "bench@example.invalid");
  private static final long EPOCH = 1_700_000_000L;

  /** What a git process printed, and how long it ran (start to exit, in nanoseconds). */
  record Run(String stdout, long nanos) {}

  private BenchGit() {}

  /** A new repository in {@code folder} whose branch {@code main} will be checked out. */
  static void init(Path folder) throws IOException {
    Files.createDirectories(folder);
    run(folder, "init", "-q", "-b", "main");
  }

  /**
   * Streams commits into branch {@code main} of {@code repository} with one {@code git fast-import}: the first
   * commit adds {@code files} files of 40 lines each ({@link #file}); each following one rewrites one of them
   * (round robin), so history grows without the tree growing. Continues {@code main} when it exists.
   *
   * @param first the number of the first commit (numbers make messages and contents unique)
   */
  static void importCommits(Path repository, int files, int first, int commits, boolean continueMain) throws IOException {
    ProcessBuilder builder = new ProcessBuilder("git", "fast-import", "--quiet", "--done").directory(repository.toFile())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(ENVIRONMENT);
    Process process = builder.start();
    try (OutputStream out = new BufferedOutputStream(process.getOutputStream(), 1 << 16)) {
      for (int n = first; n < first + commits; n++) {
        StringBuilder commit = new StringBuilder(256);
        commit.append("commit refs/heads/main\n");
        commit.append("committer Bench <bench@example.invalid> ").append(EPOCH + n).append(" +0000\n");
        data(commit, "commit " + n + "\n");
        if (n == first && continueMain) {
          commit.append("from refs/heads/main^0\n");
        }
        out.write(commit.toString().getBytes(StandardCharsets.UTF_8));
        if (n == 0) {
          for (int f = 0; f < files; f++) {
            blob(out, path(f), file(f, 0));
          }
        } else {
          int f = n % files;
          blob(out, path(f), file(f, n));
        }
        out.write('\n');
      }
      out.write("done\n".getBytes(StandardCharsets.UTF_8));
    }
    await(process, "git fast-import in " + repository, 30);
    if (process.exitValue() != 0) {
      throw new IllegalStateException("git fast-import failed in " + repository + " with exit code " + process.exitValue());
    }
  }

  /** The path of file {@code f}: 100 files per folder. */
  static String path(int f) {
    return String.format(Locale.ROOT, "src/d%03d/f%05d.txt", f / 100, f);
  }

  /** 40 lines; version {@code v} differs from version 0 in its 10th line. */
  static String file(int f, int version) {
    StringBuilder text = new StringBuilder(1024);
    for (int line = 0; line < 40; line++) {
      text.append("file ").append(f).append(" line ").append(line);
      if (line == 9 && version != 0) {
        text.append(" version ").append(version);
      }
      text.append('\n');
    }
    return text.toString();
  }

  private static void blob(OutputStream out, String path, String content) throws IOException {
    StringBuilder header = new StringBuilder(64).append("M 100644 inline ").append(path).append('\n');
    data(header, content);
    out.write(header.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void data(StringBuilder into, String text) {
    into.append("data ").append(text.getBytes(StandardCharsets.UTF_8).length).append('\n').append(text);
  }

  /** Runs git in {@code folder} and insists on success. */
  static Run run(Path folder, String... args) {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    return process(folder, command);
  }

  /** Runs {@code /bin/sh -c script} in {@code folder} with git's environment and insists on success. */
  static Run shell(Path folder, String script) {
    return process(folder, List.of("/bin/sh", "-c", script));
  }

  private static Run process(Path folder, List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true);
    builder.environment().putAll(ENVIRONMENT);
    try {
      long start = System.nanoTime();
      Process process = builder.start();
      process.getOutputStream().close();
      byte[] out = process.getInputStream().readAllBytes();
      await(process, String.join(" ", command) + " in " + folder, 10);
      long nanos = System.nanoTime() - start;
      String text = new String(out, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed in " + folder + " with exit code "
            + process.exitValue() + ": " + text.strip());
      }
      return new Run(text, nanos);
    } catch (IOException e) {
      throw new IllegalStateException("could not run " + String.join(" ", command) + " in " + folder + ": " + e.getMessage(), e);
    }
  }

  private static void await(Process process, String what, int minutes) {
    try {
      if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IllegalStateException(what + " did not finish within " + minutes + " min");
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + what, e);
    }
  }
}
