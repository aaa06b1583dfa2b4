package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code roundhouse demo} in this JVM: a throwaway hub, the script driver, a prompt answered on stdin. */
@ExtendWith(NoLeakedProcesses.class)
class DemoCommandTest {
  private static final Pattern HOME = Pattern.compile("\\(home (\\S+)\\)");

  @TempDir Path userHome;

  @Test
  void withYesTheTurnStreamsAndCompletesInAThrowawayHome() throws Exception {
    CliResult result = CliResult.run(context(userHome, userHome), "demo", "--yes");

    assertThat(result.exit()).as("%s", result).isZero();
    assertThat(result.out())
        .contains("you> script:demo")
        .contains("I'll start with the cart code and the failing test.\n")
        .contains("  [Read] src/cart.js\n  = export function total(cart) { (+4 lines)")
        .contains("  [Bash] npm test\nAllow Bash: npm test? [y]es / [a]lways / [N]o y (--yes)\n")
        .contains("  | ok 1 - total: applies the discount before tax")
        .contains("  = 3 tests, 3 passed")
        .contains("all 3 tests pass")
        .contains("(tokens: 4210 in, 380 out; $0.0183 (estimated))")
        .containsPattern("turn \\d+ completed\n")
        .doesNotContain("denied");
    Path demoHome = demoHome(result);
    assertThat(demoHome).doesNotExist();
    assertThat(demoHome.startsWith(userHome)).isFalse();
    try (Stream<Path> left = Files.list(userHome)) {
      assertThat(left).as("the user's home is never touched").isEmpty();
    }
  }

  @Test
  void aNoOnStandardInputDeniesTheCommandAndTheDenialShows() {
    Context context = context(userHome, userHome).withStdin(new ByteArrayInputStream("n\n".getBytes(StandardCharsets.UTF_8)));

    CliResult result = CliResult.run(context, "demo");

    assertThat(result.exit()).as("%s", result).isZero();
    assertThat(result.out())
        .contains("Allow Bash: npm test? [y]es / [a]lways / [N]o n\n")
        .contains("  x denied: denied by user")
        .contains("I won't run the tests")
        .doesNotContain("| ok 1")
        .containsPattern("turn \\d+ completed\n");
  }

  @Test
  void theEndOfInputIsADenial() {
    CliResult result = CliResult.run(context(userHome, userHome), "demo");

    assertThat(result.exit()).as("%s", result).isZero();
    assertThat(result.out()).contains("[N]o (no answer: end of input)\n").contains("  x denied: denied by user");
  }

  @Test
  void alwaysRemembersARuleAndKeepKeepsTheHome() throws Exception {
    Context context = context(userHome, userHome).withStdin(new ByteArrayInputStream("a\n".getBytes(StandardCharsets.UTF_8)));

    CliResult result = CliResult.run(context, "demo", "--keep");

    assertThat(result.exit()).as("%s", result).isZero();
    Path demoHome = demoHome(result);
    try {
      assertThat(result.out()).contains("[N]o a\n").contains("kept the demo's home: " + demoHome + "\n");
      assertThat(demoHome.resolve("roundhouse.db")).exists();
      assertThat(demoHome.resolve("demo-project")).isDirectory();
    } finally {
      try (Stream<Path> paths = Files.walk(demoHome)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static Path demoHome(CliResult result) {
    Matcher home = HOME.matcher(result.out());
    assertThat(home.find()).as("the demo names its home: %s", result).isTrue();
    return Path.of(home.group(1));
  }
}
