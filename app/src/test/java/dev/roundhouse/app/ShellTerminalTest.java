package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.PostgresServer;
import dev.roundhouse.hub.testing.Waits;
import dev.roundhouse.services.hub.ServicesExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code roundhouse shell} on a real terminal: run under util-linux {@code script}, which gives it a PTY as stdin and
 * stdout (what a person's terminal is), so it puts the terminal in raw mode. Typed bytes reach the hub's shell as
 * they are (a Ctrl-C interrupts the remote command, not the local client), Ctrl-P Ctrl-Q detaches and leaves the
 * local terminal as it was, and {@code --attach} replays the scrollback. {@link ShellCommandTest} covers pipes.
 */
@ExtendWith(NoLeakedProcesses.class)
class ShellTerminalTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Path SCRIPT = Path.of("/usr/bin/script");

  private TestHub hub;

  @BeforeEach
  void startHub() {
    if (!Files.isExecutable(SCRIPT)) {
      // never passes by skipping under CI (.ci/run's Debian always has util-linux)
      if (System.getenv("CI") != null) {
        throw new IllegalStateException("util-linux script is not installed at " + SCRIPT);
      }
      assumeTrue(false, "util-linux script is not installed at " + SCRIPT);
    }
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(new ServicesExtension(
        CliTestSupport.servicesSettings())));
    CliTestSupport.ok(CliTestSupport.context(hub), "project", "add", "web", hub.folder("web"));
  }

  @AfterEach
  void stopHub() {
    if (hub != null) {
      hub.close();
    }
  }

  /** What a terminal shows: everything the PTY wrote, as text. Thread-safe. */
  private static final class Screen {
    final StringBuffer text = new StringBuffer();

    Screen(InputStream out) {
      Thread.ofVirtual().start(() -> {
        byte[] buffer = new byte[4096];
        try (out) {
          for (int read; (read = out.read(buffer)) >= 0; ) {
            text.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
          }
        } catch (IOException e) {
          // script ended
        }
      });
    }

    String await(String regex) {
      Pattern pattern = Pattern.compile(regex);
      Waits.until("the terminal shows " + regex + " (so far: " + text + ")", WAIT, () -> pattern.matcher(text).find());
      Matcher matcher = pattern.matcher(text);
      matcher.find();
      return matcher.groupCount() > 0 ? matcher.group(1) : matcher.group();
    }
  }

  @Test
  void onARealTerminalTheShellIsRawDetachesCleanlyAndReattachesWithItsScrollback() throws Exception {
    Process first = underScript("shell", "--project", "web");
    Screen firstScreen = new Screen(first.getInputStream());
    String session;
    try (OutputStream keys = first.getOutputStream()) {
      type(keys, "echo started-$((1+1)); sleep 300\r");
      firstScreen.await("started-2");
      type(keys, "\u0003"); // raw: a byte for the hub's shell (interrupting sleep); cooked, it would SIGINT the client
      type(keys, "echo after-$((5*5))\r");
      firstScreen.await("after-25");
      type(keys, "\u0010\u0011"); // Ctrl-P Ctrl-Q
      assertThat(first.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("roundhouse shell detaches and ends").isTrue();
      assertThat(first.exitValue()).as("the terminal showed: %s", firstScreen.text).isZero();
      session = firstScreen.await("roundhouse shell --attach (\\S+)");
      // stty -a, run on the same terminal once the client has gone: raw mode was undone.
      assertThat(firstScreen.await("(\\S*icanon) ")).isEqualTo("icanon");
      assertThat(firstScreen.await("(\\S*echo) echoe")).isEqualTo("echo");
    } finally {
      RoundhouseProcess.kill(first);
    }

    Process second = underScript("shell", "--attach", session);
    Screen secondScreen = new Screen(second.getInputStream());
    try (OutputStream keys = second.getOutputStream()) {
      secondScreen.await("after-25"); // the scrollback, before anything is typed
      type(keys, "echo again-$((3*3)); exit 4\r");
      secondScreen.await("again-9");
      assertThat(second.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the reattached shell ends").isTrue();
      assertThat(second.exitValue()).as("the terminal showed: %s", secondScreen.text).isEqualTo(4);
    } finally {
      RoundhouseProcess.kill(second);
    }
    Waits.until("no shell left on the hub", WAIT,
        () -> ProcessHandle.current().descendants().filter(p -> !PostgresServer.isSharedServer(p)).noneMatch(ProcessHandle::isAlive));
  }

  /**
   * {@code roundhouse args} on a new PTY ({@code script -qfec}), then {@code stty -a} on that PTY; exits with the
   * client's status. What {@code script} reads from its stdin is typed on the PTY.
   */
  private Process underScript(String... args) throws IOException {
    ProcessBuilder roundhouse = RoundhouseProcess.builder(hub.home(), List.of(), args);
    String command = roundhouse.command().stream().map(ShellTerminalTest::quoted).collect(Collectors.joining(" "));
    ProcessBuilder builder = new ProcessBuilder(SCRIPT.toString(), "-qfec",
        "stty cols 100 rows 30; " + command + "; code=$?; stty -a; exit $code", "/dev/null")
        .redirectErrorStream(true);
    builder.environment().putAll(roundhouse.environment());
    builder.environment().keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_") && !roundhouse.environment().containsKey(name));
    builder.environment().put(HubEndpoint.URL_VARIABLE, hub.server().url());
    return builder.start();
  }

  private static String quoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  private static void type(OutputStream keys, String text) throws IOException {
    keys.write(text.getBytes(StandardCharsets.UTF_8));
    keys.flush();
  }
}
