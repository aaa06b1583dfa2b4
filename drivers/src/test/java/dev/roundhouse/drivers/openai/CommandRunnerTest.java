package dev.roundhouse.drivers.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.roundhouse.hub.testing.Waits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LeakCheck.class)
class CommandRunnerTest {
  @TempDir Path folder;
  final List<String> live = new CopyOnWriteArrayList<>();

  private CommandRunner runner() {
    return new CommandRunner(Set.of(), null, 64 * 1024);
  }

  private CommandRunner.Outcome run(CommandRunner runner, String command, Duration timeout) throws Exception {
    return runner.run(folder, command, timeout, live::add);
  }

  private static long pidIn(String output) {
    return Long.parseLong(output.lines().filter(line -> line.matches("\\d+")).findFirst().orElseThrow());
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  @Test
  void capturesStdoutAndStderrAndTheExitCode() throws Exception {
    CommandRunner.Outcome outcome = run(runner(), "echo out; echo err >&2; exit 3", Duration.ofSeconds(30));

    assertThat(outcome.exitCode()).isEqualTo(3);
    assertThat(outcome.output()).contains("out\n").contains("err\n");
    assertThat(String.join("", live)).isEqualTo(outcome.output());
    assertThat(outcome.timedOut()).isFalse();
    assertThat(outcome.stopped()).isFalse();
  }

  @Test
  void runsInTheWorkingDirectoryWithAnEmptyStdin() throws Exception {
    CommandRunner.Outcome outcome = run(runner(), "pwd; cat; echo done", Duration.ofSeconds(30));

    assertThat(outcome.output()).isEqualTo(folder.toRealPath() + "\ndone\n");
    assertThat(outcome.exitCode()).isZero();
  }

  @Test
  void capsTheOutputKeepingItsStartAndItsEnd() throws Exception {
    CommandRunner runner = new CommandRunner(Set.of(), null, 1000);

    CommandRunner.Outcome outcome = run(runner, "seq 1 100000", Duration.ofSeconds(30));

    assertThat(outcome.output()).startsWith("1\n2\n3\n").endsWith("99999\n100000\n").contains("characters of output left out");
    assertThat(outcome.output().length()).isLessThan(1100);
    assertThat(String.join("", live).length()).isEqualTo(750);
  }

  @Test
  void aTimeoutKillsTheCommandAndItsChildren() throws Exception {
    CommandRunner.Outcome outcome = run(runner(), "sleep 300 & echo $!; sleep 300", Duration.ofMillis(500));

    assertThat(outcome.timedOut()).isTrue();
    assertThat(outcome.exitCode()).isEqualTo(-1);
    long child = pidIn(outcome.output());
    Waits.until("the background child to be killed", Duration.ofSeconds(10), () -> !alive(child));
  }

  @Test
  void backgroundJobsEndWhenTheCommandReturns() throws Exception {
    CommandRunner.Outcome outcome = run(runner(), "sleep 300 & echo $!", Duration.ofSeconds(60));

    assertThat(outcome.exitCode()).isZero();
    long child = pidIn(outcome.output());
    Waits.until("the background job to be killed", Duration.ofSeconds(10), () -> !alive(child));
  }

  @Test
  void stopKillsARunningCommandAndRefusesNewOnes() throws Exception {
    CommandRunner runner = runner();
    AtomicReference<CommandRunner.Outcome> outcome = new AtomicReference<>();
    Thread turn = Thread.ofVirtual().start(() -> {
      try {
        outcome.set(run(runner, "echo ready; sleep 300", Duration.ofMinutes(10)));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    Waits.until("the command to start", Duration.ofSeconds(10), () -> String.join("", live).contains("ready"));

    runner.stopAll();

    Waits.until("the command to end", Duration.ofSeconds(10), () -> !turn.isAlive());
    assertThat(outcome.get().stopped()).isTrue();
    assertThat(outcome.get().output()).isEqualTo("ready\n");
    assertThat(run(runner, "echo never", Duration.ofSeconds(5)).stopped()).isTrue();
  }

  @Test
  void variablesThatHoldTheKeyAreLeftOutOfTheEnvironment() throws Exception {
    Optional<Map.Entry<String, String>> holder = System.getenv().entrySet().stream()
        .filter(entry -> !entry.getKey().equals("PATH") && entry.getValue().length() >= Secret.MIN_SCRUBBED_LENGTH && entry.getKey().matches("[A-Z_]+"))
        .findFirst();
    assumeTrue(holder.isPresent(), "needs an environment variable with a long value");
    String byValue = holder.get().getKey();
    CommandRunner runner = new CommandRunner(Set.of("HOME"), Secret.of(holder.get().getValue()).orElseThrow(), 64 * 1024);

    CommandRunner.Outcome outcome = run(runner, "echo \"home=${HOME:-unset} value=${" + byValue + ":-unset}\"", Duration.ofSeconds(30));

    assertThat(outcome.output()).isEqualTo("home=unset value=unset\n");
  }
}
