package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's tour of the CLI, run as written, top to bottom, against a real {@code roundhouse serve} on an
 * empty home: a newcomer's first commands must work. Each {@code ./roundhouse ...} runs this build's CLI in this
 * JVM (a JVM start per line cost minutes on a loaded machine; the launcher is tested elsewhere), with its words
 * split as a shell would (double quotes, {@code ~/}); anything else on a line ({@code git}, {@code mkdir}) runs
 * in bash; {@code &&} joins parts. {@code ~} is a temporary folder. Three lines are not run to their end, each
 * for a reason: {@code events --follow} runs until stopped (it must still be running after a few seconds),
 * {@code bench} and {@code demo} have tests of their own ({@code BenchCommandTest}, {@code DemoCommandTest};
 * the demo waits for a person).
 */
class ReadmeTourTest {
  private static final Duration LINE_TIMEOUT = Duration.ofSeconds(90);
  /** A second JVM's start and first replay: 18 s measured at a load average of 25 on two cores. */
  private static final Duration FOLLOW_TIMEOUT = Duration.ofMinutes(3);

  @TempDir Path root;

  @Test
  void theTourRunsTopToBottomOnAnEmptyHome() throws Exception {
    List<String> tour = tourLines();
    assertThat(tour).as("the tour in README.md").hasSizeGreaterThan(10);
    Path home = Files.createDirectories(root.resolve("roundhouse-home"));
    Path userHome = Files.createDirectories(root.resolve("user"));
    try (RoundhouseProcess hub = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      hub.awaitErrLine(line -> McpStdioTest.listening(line).matches(), LINE_TIMEOUT);
      for (String line : tour) {
        if (line.contains("./roundhouse bench") || line.contains("./roundhouse demo")) {
          continue; // tested by BenchCommandTest and DemoCommandTest
        }
        for (String part : withoutComment(line).split(" && ")) {
          String command = part.strip();
          if (!command.startsWith("./roundhouse ")) {
            Result result = bash(command, userHome);
            assertThat(result.exit()).as("README tour line:\n  %s\n%s", line, result).isZero();
            continue;
          }
          String[] args = words(command.substring("./roundhouse ".length()), userHome).toArray(String[]::new);
          Context cli = new Context(Map.of("ROUNDHOUSE_HOME", home.toString(), "HOME", userHome.toString(),
              "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")), userHome);
          if (command.contains("--follow")) { // a real process, so that stopping it is certain
            try (RoundhouseProcess follow = RoundhouseProcess.start(home, args)) {
              // it prints what happens from when it is connected: edit (once a second) until it prints one
              long[] lastEdit = {0};
              Waits.until("'" + line + "' to print an edit made after it started (stdout so far: " + follow.out().length() + " chars)", FOLLOW_TIMEOUT, () -> {
                if (System.nanoTime() - lastEdit[0] > TimeUnit.SECONDS.toNanos(1)) {
                  CliTestSupport.ok(cli, "task", "update", "1", "--description", "followed at " + System.nanoTime());
                  lastEdit[0] = System.nanoTime();
                }
                return follow.out().contains("task.updated") || !follow.isAlive();
              });
              assertThat(follow.out()).as("'%s' printed the edit; stderr: %s", line, follow.err()).contains("task.updated");
              assertThat(follow.isAlive()).as("'%s' runs until stopped; stderr: %s", line, follow.err()).isTrue();
            }
            continue;
          }
          CliResult result = CliResult.run(cli, args);
          assertThat(result.exit()).as("README tour line:\n  %s\n%s", line, result).isZero();
        }
      }
    }
  }

  /** The line without its trailing {@code # comment} (none of the tour's commands has a # of its own). */
  private static String withoutComment(String line) {
    int hash = line.indexOf(" #");
    return hash < 0 ? line : line.substring(0, hash);
  }

  /** Splits {@code text} into words as a shell would for the tour: double quotes group, {@code ~/} is the home. */
  static List<String> words(String text, Path userHome) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean quoted = false;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        quoted = !quoted;
        inWord = true;
      } else if (c == ' ' && !quoted) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        if (!inWord && !quoted && text.startsWith("~/", i)) {
          word.append(userHome).append('/');
          i++;
        } else {
          word.append(c);
        }
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  /** The tour's command lines: the sh block after "## A tour of the CLI", comments kept (bash ignores them). */
  private static List<String> tourLines() throws IOException {
    String readme = Files.readString(repositoryRoot().resolve("README.md"), StandardCharsets.UTF_8);
    int section = readme.indexOf("## A tour of the CLI");
    assertThat(section).as("README.md has a tour").isNotNegative();
    int start = readme.indexOf("```sh\n", section) + "```sh\n".length();
    int end = readme.indexOf("```", start);
    List<String> lines = new ArrayList<>();
    readme.substring(start, end).lines().filter(line -> !line.isBlank()).forEach(lines::add);
    return lines;
  }

  private record Result(int exit, String output) {
    @Override
    public String toString() {
      return "exit " + exit + ", output:\n" + output;
    }
  }

  private static Result bash(String line, Path userHome) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("bash", "-c", line).directory(userHome.toFile()).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_") || name.startsWith("GIT_"));
    env.putAll(Map.of("HOME", userHome.toString(), "GIT_CONFIG_NOSYSTEM", "1",
        "GIT_AUTHOR_NAME", "New User", "GIT_AUTHOR_EMAIL", "new@example.invalid",
        "GIT_COMMITTER_NAME", "New User", "GIT_COMMITTER_EMAIL", "new@example.invalid"));
    Process process = builder.start();
    process.getOutputStream().close();
    byte[] output = process.getInputStream().readAllBytes(); // ends when the line's processes close their output
    assertThat(process.waitFor(LINE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("'%s' ended", line).isTrue();
    return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
  }

  private static Path repositoryRoot() {
    Path cwd = Path.of("").toAbsolutePath();
    for (Path dir = cwd; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("app"))) {
        return dir;
      }
    }
    throw new AssertionError("no repository root (a folder with mvnw and app/) above " + cwd);
  }
}
