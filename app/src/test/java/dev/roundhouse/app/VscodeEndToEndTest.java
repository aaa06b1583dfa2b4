package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.NodeProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The packaged extension ({@code roundhouse.vsix}, built here) in a real VS Code (code-server, installed by
 * {@code vscode-extension/e2e/install-code-server.sh}, which {@code ./run-tests} runs) driven by a real
 * browser (Chromium over playwright-core), against real hubs running the script driver: each file of
 * {@code vscode-extension/e2e/tests} is one test here (the board and Needs-you with the keyboard; turns,
 * transcripts and the three places a decision is answered; restarting and failing bridges), so a failure
 * names its flow. A failing node test saves a screenshot under {@code app/target/e2e-failures}. Missing
 * code-server or Chromium skips with the reason on a developer's machine and fails under CI.
 */
@ExtendWith(NoLeakedProcesses.class)
class VscodeEndToEndTest {
  private static final Duration FILE_TIMEOUT = Duration.ofMinutes(20);

  @BeforeAll
  static void packageTheExtension() throws Exception {
    NodeProject extension = NodeProject.installed("vscode-extension");
    Files.deleteIfExists(extension.folder().resolve("roundhouse.vsix"));
    extension.assertRuns(List.of("npm", "run", "build"));
    assertThat(extension.assertRuns(List.of("npm", "run", "package"))).contains("Packaged");
  }

  @ParameterizedTest
  @ValueSource(strings = {"board", "turns", "bridge"})
  void extensionWorksInARealVsCodeDrivenByARealBrowser(String file) {
    NodeProject e2e = NodeProject.installed("vscode-extension", "e2e");
    NodeProject.Result ready = e2e.run(List.of("node", "lib/ready.mjs"), Map.of());
    if (ready.exit() != 0) {
      String message = "the end-to-end tests cannot run: " + ready.output().strip();
      if (System.getenv("CI") != null) {
        throw new IllegalStateException(message + " (.ci/run installs every prerequisite)");
      }
      assumeTrue(false, message);
    }
    e2e.assertNodeTestsPass(List.of("node", "--test", "--test-concurrency=1", "tests/" + file + ".test.mjs"), Map.of(
        "RH_ROUNDHOUSE_CMD", Json.write(Json.tree(roundhouseCommand())),
        "RH_E2E_FAILURES", Path.of("target", "e2e-failures").toAbsolutePath().toString()), FILE_TIMEOUT);
  }

  /** {@code roundhouse} in this JVM's class path (the node tests add {@code serve} or {@code lsp}). */
  private static List<String> roundhouseCommand() {
    List<String> command = new ArrayList<>(McpStdioTest.mcpCommand());
    command.removeLast();
    return command;
  }
}
