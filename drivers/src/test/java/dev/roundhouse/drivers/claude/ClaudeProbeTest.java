package dev.roundhouse.drivers.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.drivers.process.AgentCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the probes of the installed CLI run: never in the hub's working directory (a repository, perhaps). */
class ClaudeProbeTest {
  @TempDir Path home;

  private static ClaudeProbe probe(Map<String, String> env) {
    return new ClaudeProbe(new AgentCommand("/bin/sh", List.of("-c", "pwd -P", "sh"), Map.of()), env, Duration.ofSeconds(30));
  }

  @Test
  void aProbeRunsInTheSessionsHome() throws Exception {
    ClaudeProbe.Output out = probe(Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin")).run(List.of("--version")).orElseThrow();

    assertThat(out.stdout().strip()).isEqualTo(home.toRealPath().toString());
    assertThat(Path.of("").toRealPath().toString()).as("the test's own directory differs").isNotEqualTo(home.toRealPath().toString());
  }

  @Test
  void withNoUsableHomeAProbeRunsInTheRoot() {
    for (Map<String, String> env : List.of(Map.of("PATH", "/usr/bin:/bin"),
        Map.of("HOME", home.resolve("gone").toString(), "PATH", "/usr/bin:/bin"))) {
      assertThat(Files.exists(home.resolve("gone"))).isFalse();
      assertThat(probe(env).run(List.of("--version")).orElseThrow().stdout().strip()).isEqualTo("/");
    }
  }
}
