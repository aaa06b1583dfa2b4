package dev.roundhouse.drivers.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the real agent CLIs are for tests: {@code drivers/src/test/agents/node_modules/.bin}, installed from
 * the pinned {@code package.json} there by {@code ./run-tests}. A missing CLI fails the test with the fix,
 * never skips it: these tests are the proof that the drivers work with the real programs.
 */
public final class AgentClis {
  private AgentClis() {}

  public static Path claude() {
    return find("claude");
  }

  public static Path codex() {
    return find("codex");
  }

  public static Path gemini() {
    return find("gemini");
  }

  private static Path find(String name) {
    Path bin = folder().resolve(name);
    assertThat(Files.isExecutable(bin))
        .as("%s is not installed at %s: run ./run-tests (it runs npm ci in drivers/src/test/agents)", name, bin)
        .isTrue();
    return bin;
  }

  /** The folder of the installed CLIs' launchers. */
  public static Path folder() {
    Path here = Path.of("").toAbsolutePath();
    // Surefire runs in the module folder; an IDE may run from the repository root.
    Path module = Files.isDirectory(here.resolve("src/test/agents")) ? here : here.resolve("drivers");
    return module.resolve("src/test/agents/node_modules/.bin");
  }
}
