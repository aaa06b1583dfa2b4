package dev.roundhouse.drivers.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentProcessTest {
  @TempDir Path dir;

  @Test
  void echoesLinesBothWaysAndEndsWhenStdinCloses() throws Exception {
    LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    CountDownLatch ended = new CountDownLatch(1);
    try (AgentProcess cat = AgentProcess.start("cat", List.of("cat"), dir, ChildEnvironment.fromHub().toMap())) {
      cat.readLines(lines::add, ended::countDown);
      cat.send("{\"hello\":1}");
      cat.send("second");
      assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"hello\":1}");
      assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo("second");
      cat.closeStdin();
      assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(cat.awaitExit(Duration.ofSeconds(10))).hasValue(0);
      assertThatThrownBy(() -> cat.send("late")).isInstanceOf(UncheckedIOException.class).hasMessageContaining("cat no longer takes input");
    }
  }

  @Test
  void terminateEndsTheWholeGroupIncludingGrandchildrenThatIgnoreTerm() throws Exception {
    LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    String script = "trap '' TERM; (trap '' TERM; sleep 300) & echo started; wait";
    AgentProcess shell = AgentProcess.start("sh", List.of("bash", "-c", script), dir, ChildEnvironment.fromHub().toMap());
    shell.readLines(lines::add, () -> {});
    assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo("started");
    assertThat(ProcessHandle.current().descendants().count()).isGreaterThanOrEqualTo(2);
    shell.terminate(Duration.ofMillis(200));
    assertThat(shell.isAlive()).isFalse();
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(10));
  }

  @Test
  void keepsTheEndOfStderrForErrorMessages() throws Exception {
    AgentProcess failing = AgentProcess.start("sh", List.of("bash", "-c", "for i in $(seq 1 100); do echo line $i >&2; done; exit 3"), dir, ChildEnvironment.fromHub().toMap());
    assertThat(failing.awaitExit(Duration.ofSeconds(10))).hasValue(3);
    failing.awaitStderr(Duration.ofSeconds(10));
    assertThat(failing.stderrTail()).endsWith("line 100").doesNotContain("line 60\n").contains("line 61");
  }

  @Test
  void theChildSeesOnlyTheAllowedAndGivenVariables() throws Exception {
    Map<String, String> hub = Map.of(
        "PATH", System.getenv("PATH"), "ROUNDHOUSE_TOKEN", "hub-secret", "ANTHROPIC_API_KEY", "sk-ant",
        "OPENAI_API_KEY", "sk-openai", "AWS_SECRET_ACCESS_KEY", "aws", "LANG", "C.UTF-8");
    Map<String, String> env = ChildEnvironment.from(hub).passPrefixes(List.of("ANTHROPIC_")).put("HOME", dir.toString()).toMap();
    LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    CountDownLatch ended = new CountDownLatch(1);
    AgentProcess printer = AgentProcess.start("env", List.of("env"), dir, env);
    printer.readLines(lines::add, ended::countDown);
    assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(lines).contains("ANTHROPIC_API_KEY=sk-ant", "HOME=" + dir, "LANG=C.UTF-8")
        .noneMatch(line -> line.startsWith("ROUNDHOUSE_") || line.startsWith("OPENAI_") || line.startsWith("AWS_"));
  }

  @Test
  void aMissingProgramFailsToStartWithItsName() {
    assertThatThrownBy(() -> AgentProcess.start("nope", List.of(dir.resolve("no-such-cli").toString()), dir, Map.of("PATH", "/usr/bin:/bin")))
        .hasMessageContaining("no-such-cli");
  }
}
