package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import dev.roundhouse.services.PortPlan;
import dev.roundhouse.services.hub.ServicesExtension;
import dev.roundhouse.services.hub.ServicesSettings;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code roundhouse shell} as a real process with pipes (no TTY, so no raw mode) against a real hub's terminal. */
@ExtendWith(NoLeakedProcesses.class)
class ShellCommandTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private TestHub hub;

  @BeforeEach
  void startHub() {
    int base = 45_000 + ThreadLocalRandom.current().nextInt(400) * 10;
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(new ServicesExtension(
        ServicesSettings.defaults().withPorts(new PortPlan(base, 20, 10)).withStopGrace(Duration.ofSeconds(2)))));
    ok(context(hub), "project", "add", "web", hub.folder("web"));
  }

  @AfterEach
  void stopHub() {
    hub.close();
  }

  @Test
  void shellRunsTheInputOnTheHubAndExitsWithTheShellsCode() throws Exception {
    ProcessBuilder builder = RoundhouseProcess.builder(hub.home(), List.of(), "shell", "--project", "web");
    builder.environment().put(HubEndpoint.URL_VARIABLE, hub.server().url());
    Process shell = builder.start();
    CompletableFuture<String> out = read(shell.getInputStream());
    CompletableFuture<String> err = read(shell.getErrorStream());
    try (OutputStream stdin = shell.getOutputStream()) {
      stdin.write("echo hello-$((6*7))\nexit 3\n".getBytes(StandardCharsets.UTF_8));
    }
    try {
      assertThat(shell.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("roundhouse shell ends").isTrue();
      assertThat(out.get(WAIT.toSeconds(), TimeUnit.SECONDS)).contains("hello-42");
      assertThat(shell.exitValue()).as("stderr: %s", err.getNow("")).isEqualTo(3);
    } finally {
      RoundhouseProcess.kill(shell);
    }
    Waits.until("no shell left on the hub", WAIT,
        () -> ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive));
  }

  @Test
  void shellWithoutAPlaceIsAUsageError() {
    CliResult result = CliResult.run(context(hub), "shell");
    assertThat(result.exit()).isEqualTo(ExitCode.USAGE.status());
    assertThat(result.err()).contains("--project P or --task N");
  }

  @Test
  void shellInAnUnknownProjectNamesIt() {
    CliResult result = CliResult.run(context(hub), "shell", "--project", "nowhere");
    assertThat(result.exit()).isEqualTo(ExitCode.FAILED.status());
    assertThat(result.err()).contains("nowhere");
  }

  private static CompletableFuture<String> read(java.io.InputStream stream) {
    CompletableFuture<String> text = new CompletableFuture<>();
    Thread.ofVirtual().start(() -> {
      try (stream) {
        text.complete(new String(stream.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        text.completeExceptionally(e);
      }
    });
    return text;
  }
}
