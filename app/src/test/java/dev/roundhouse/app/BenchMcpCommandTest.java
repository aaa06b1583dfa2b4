package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.NodeProject;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny run of {@code roundhouse bench mcp}: both servers (the hub's /mcp and the MCP TypeScript SDK's
 * server on node) answer every call correctly, the output has both figures and the ratio lines, and the
 * TypeScript server's process is gone afterwards. No timing is asserted.
 */
@ExtendWith(NoLeakedProcesses.class)
class BenchMcpCommandTest {
  @TempDir Path home;

  @Test
  void bothServersAnswerAndTheRatiosArePrinted() throws Exception {
    NodeProject sdk = NodeProject.installed("mcp-server", "src", "test", "node");

    CliResult result = ok(context(home, home), "bench", "mcp", "--sessions", "2", "--seconds", "1", "--warmup", "1",
        "--ts-server", sdk.folder().toString());

    assertThat(result.out())
        .containsPattern("(?m)^roundhouse +[0-9]+ calls/s .*, 0 failed\\)$")
        .containsPattern("(?m)^typescript +[0-9]+ calls/s .*, 0 failed\\)$")
        .containsPattern("(?m)^ratio throughput roundhouse / typescript: [0-9.]+x")
        .containsPattern("(?m)^ratio p99 roundhouse / typescript: [0-9.]+ ")
        .contains("MCP TypeScript SDK 1.32.2 on Node v")
        .doesNotContain("first failure");
  }

  @Test
  void withoutNodeItSaysWhatToInstall() throws Exception {
    java.util.Map<String, String> env = new java.util.HashMap<>();
    env.put("ROUNDHOUSE_HOME", home.toString());
    env.put("PATH", home.resolve("no-bin").toString());
    CliResult result = CliResult.run(new Context(env, home), "bench", "mcp", "--seconds", "1", "--warmup", "0");

    assertThat(result.exit()).isEqualTo(ExitCode.FAILED.status());
    assertThat(result.err()).contains("node is not installed").contains("Node.js 20 or newer").contains("npm ci");
  }
}
