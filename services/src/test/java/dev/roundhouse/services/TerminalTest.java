package dev.roundhouse.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real shells on real PTYs (pty4j). */
class TerminalTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dir;
  private final ManualScheduler time = new ManualScheduler();
  private final RecordingJournal journal = new RecordingJournal();
  private final Terminals terminals =
      Terminals.create(time, journal, Duration.ofMinutes(5), 64 * 1024, Duration.ofMillis(500));

  @AfterEach
  void nothingLeftBehind() {
    terminals.close();
    assertThat(ProcessCensus.alive(journal.runIds())).isEmpty();
    assertThat(journal.live.records()).isEmpty();
  }

  private TerminalSession shell() {
    return terminals.open(new TerminalSpec(List.of("/bin/sh"), dir.toString(), Map.of("PORT", "21040"), 80, 24));
  }

  private static void type(TerminalSession terminal, String text) {
    terminal.input(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void typedCommandsRunInTheWorkingDirectoryWithThePort() throws Exception {
    TerminalSession terminal = shell();
    RecordingTerminal screen = new RecordingTerminal();
    terminal.attach(screen);

    type(terminal, "echo \"port=$PORT\"; pwd\n");

    screen.awaitMatch("port=21040\\r?\\n", WAIT);
    screen.awaitMatch(java.util.regex.Pattern.quote(dir.toRealPath().toString()) + "\\r?\\n", WAIT);
  }

  @Test
  void sttySizeFollowsAResize() throws Exception {
    TerminalSession terminal = shell();
    RecordingTerminal screen = new RecordingTerminal();
    terminal.attach(screen);

    terminal.resize(120, 40);
    type(terminal, "stty size\n");

    screen.awaitMatch("40 120\\r?\\n", WAIT);
  }

  @Test
  void theExitCodeIsReported() throws Exception {
    TerminalSession terminal = shell();
    RecordingTerminal screen = new RecordingTerminal();
    terminal.attach(screen);

    type(terminal, "exit 7\n");

    assertThat(screen.awaitExit(WAIT)).isEqualTo(7);
    assertThat(terminal.exitCode()).contains(7);
    assertThat(terminals.find(terminal.id())).isEmpty();
  }

  @Test
  void closingHangsUpTheShellsGroupBackgroundJobsIncluded() throws Exception {
    TerminalSession terminal = shell();
    RecordingTerminal screen = new RecordingTerminal();
    terminal.attach(screen);
    type(terminal, "trap '' HUP TERM; sleep 1000 & setsid sleep 1000 & echo spawned-$((1+1))\n");
    screen.awaitMatch("spawned-2", WAIT);
    List<Long> before = Eventually.await("the shell and two sleeps", WAIT,
        () -> ProcessCensus.alive(journal.runIds()), pids -> pids.size() >= 3);

    terminal.close();

    assertThat(before).noneMatch(ProcessCensus::alive);
    assertThat(terminal.exitCode()).isPresent();
  }

  @Test
  void aViewerReattachingWithinTheGraceGetsTheRecentScrollback() throws Exception {
    TerminalSession terminal = shell();
    RecordingTerminal first = new RecordingTerminal();
    Subscription attachment = terminal.attach(first);
    type(terminal, "echo before-$((1+1))\n");
    first.awaitMatch("before-2", WAIT);
    attachment.close();

    time.advance(Duration.ofMinutes(4));
    RecordingTerminal second = new RecordingTerminal();
    terminals.find(terminal.id()).orElseThrow().attach(second);
    type(terminal, "echo after-$((2+1))\n");

    second.awaitMatch("after-3", WAIT);
    assertThat(second.text()).as("the scrollback replayed").contains("before-2");
  }

  @Test
  void aSessionWithNoViewerPastTheGraceIsHungUp() throws Exception {
    TerminalSession terminal = shell();
    terminal.attach(new RecordingTerminal()).close();

    time.advance(Duration.ofMinutes(5));

    terminal.awaitExit(WAIT);
    assertThat(terminals.find(terminal.id())).isEmpty();
    assertThat(ProcessCensus.alive(List.of(terminal.id()))).isEmpty();
  }

  @Test
  void scrollbackKeepsOnlyTheMostRecentBytes() {
    Scrollback scrollback = new Scrollback(4);
    scrollback.append("abc".getBytes(StandardCharsets.UTF_8), 3);
    scrollback.append("defgh".getBytes(StandardCharsets.UTF_8), 5);

    assertThat(new String(scrollback.snapshot(), StandardCharsets.UTF_8)).isEqualTo("efgh");
    assertThat(scrollback.total()).isEqualTo(8);
  }
}
