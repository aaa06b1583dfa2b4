package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code roundhouse bench start}'s refusals, which come before any start: each names what is missing and how to
 * get it. (A real run starts the launcher's jar many times and is a benchmark, not a test: docs/performance.md.)
 */
class BenchStartCommandTest {
  @TempDir Path home;

  @Test
  void aLauncherThatIsNotThereIsNamed() {
    CliResult result = CliResult.run(context(System.getenv("PATH")), "bench", "start", "--launcher", "no/such/roundhouse");

    assertThat(result.exit()).isEqualTo(ExitCode.FAILED.status());
    assertThat(result.err()).contains("cannot find the roundhouse launcher at " + home.resolve("no/such/roundhouse")).contains("--launcher");
  }

  @Test
  void withoutNodeItSaysWhatToInstall() throws Exception {
    Path launcher = Files.createFile(home.resolve("roundhouse"));
    assertThat(launcher.toFile().setExecutable(true)).isTrue();
    CliResult result = CliResult.run(context(home.resolve("no-bin").toString()), "bench", "start", "--launcher", launcher.toString());

    assertThat(result.exit()).isEqualTo(ExitCode.FAILED.status());
    assertThat(result.err()).contains("node is not installed").contains("Node.js 20 or newer").contains("npm ci");
  }

  @Test
  void runsMustBeAtLeastOne() {
    CliResult result = CliResult.run(context(System.getenv("PATH")), "bench", "start", "--runs", "0");

    assertThat(result.exit()).isEqualTo(ExitCode.USAGE.status());
    assertThat(result.err()).contains("--runs must be between 1 and 100");
  }

  private Context context(String path) {
    Map<String, String> env = new HashMap<>();
    env.put("ROUNDHOUSE_HOME", home.toString());
    env.put("PATH", path == null ? "" : path);
    return new Context(env, home);
  }
}
