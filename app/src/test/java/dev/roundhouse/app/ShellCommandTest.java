package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.PostgresServer;
import dev.roundhouse.hub.testing.Waits;
import dev.roundhouse.services.hub.ServicesExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(new ServicesExtension(
        CliTestSupport.servicesSettings())));
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
        () -> ProcessHandle.current().descendants().filter(p -> !PostgresServer.isSharedServer(p)).noneMatch(ProcessHandle::isAlive));
  }

  @Test
  void detachedShellIsReattachedWithItsScrollback() throws Exception {
    Process first = start("shell", "--project", "web");
    CompletableFuture<String> firstErr = read(first.getErrorStream());
    StringBuffer firstOut = new StringBuffer();
    Thread.ofVirtual().start(() -> {
      try (var stream = first.getInputStream()) {
        byte[] buffer = new byte[4096];
        for (int read; (read = stream.read(buffer)) >= 0; ) {
          firstOut.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        // the process ended
      }
    });
    String session;
    try (OutputStream stdin = first.getOutputStream()) {
      stdin.write("echo first-$((2*3))\n".getBytes(StandardCharsets.UTF_8));
      stdin.flush();
      Waits.until("the first command's output", WAIT, () -> firstOut.toString().contains("first-6"));
      stdin.write(new byte[] {0x10, 0x11}); // Ctrl-P Ctrl-Q
      stdin.flush();
      assertThat(first.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("roundhouse shell detaches and ends").isTrue();
      assertThat(first.exitValue()).as("stderr: %s", firstErr.getNow("")).isZero();
      String err = firstErr.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      java.util.regex.Matcher attach = java.util.regex.Pattern.compile("roundhouse shell --attach (\\S+)").matcher(err);
      assertThat(attach.find()).as("stderr: %s", err).isTrue();
      session = attach.group(1);
    } finally {
      RoundhouseProcess.kill(first);
    }
    assertThat(ProcessHandle.current().descendants().filter(p -> !PostgresServer.isSharedServer(p)).anyMatch(ProcessHandle::isAlive))
        .as("the detached shell still runs on the hub").isTrue();

    Process second = start("shell", "--attach", session);
    CompletableFuture<String> out = read(second.getInputStream());
    CompletableFuture<String> err = read(second.getErrorStream());
    try (OutputStream stdin = second.getOutputStream()) {
      stdin.write("echo second-$((3*3))\nexit 4\n".getBytes(StandardCharsets.UTF_8));
    }
    try {
      assertThat(second.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the reattached shell ends").isTrue();
      String seen = out.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(seen).as("the scrollback, then the new output").contains("first-6", "second-9");
      assertThat(seen.indexOf("first-6")).isLessThan(seen.indexOf("second-9"));
      assertThat(second.exitValue()).as("stderr: %s", err.getNow("")).isEqualTo(4);
    } finally {
      RoundhouseProcess.kill(second);
    }
    Waits.until("no shell left on the hub", WAIT,
        () -> ProcessHandle.current().descendants().filter(p -> !PostgresServer.isSharedServer(p)).noneMatch(ProcessHandle::isAlive));
  }

  @Test
  void attachingAnUnknownSessionNamesIt() {
    CliResult result = CliResult.run(context(hub), "shell", "--attach", "no-such-session");
    assertThat(result.exit()).isEqualTo(ExitCode.FAILED.status());
    assertThat(result.err()).contains("no terminal session no-such-session");
  }

  @Test
  void attachWithAPlaceIsAUsageError() {
    CliResult result = CliResult.run(context(hub), "shell", "--attach", "x", "--project", "web");
    assertThat(result.exit()).isEqualTo(ExitCode.USAGE.status());
    assertThat(result.err()).contains("leave out --project and --task");
  }

  private Process start(String... args) throws IOException {
    ProcessBuilder builder = RoundhouseProcess.builder(hub.home(), List.of(), args);
    builder.environment().put(HubEndpoint.URL_VARIABLE, hub.server().url());
    return builder.start();
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
