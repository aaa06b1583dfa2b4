package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code roundhouse serve}, killed by SIGKILL while a turn's agent CLI runs with a child and a grandchild
 * that left its process group with {@code setsid}: after the next {@code serve} has started, none is left.
 */
@ExtendWith(NoLeakedProcesses.class)
class ServeReapsTurnProcessesTest {
  private static final Duration START = Duration.ofSeconds(60);

  /** A stand-in for Claude Code: starts a child and a setsid grandchild, writes the three pids, and waits. */
  private static final String FAKE_CLAUDE = """
      #!/bin/sh
      sleep 1000 &
      c=$!
      setsid sh -c 'echo $$ > pids.g; exec sleep 1000' &
      while [ ! -s pids.g ]; do :; done
      echo $$ $c $(cat pids.g) > pids.tmp
      mv pids.tmp pids
      wait
      """;

  @TempDir Path home;
  @TempDir Path bin;

  @Test
  void aSigkilledServeLeavesNoTurnProcessAfterTheNextServeStarts() throws IOException {
    Path repo = Files.createDirectories(home.resolve("repos/web"));
    Path claude = bin.resolve("fake-claude");
    Files.writeString(claude, FAKE_CLAUDE);
    Files.setPosixFilePermissions(claude, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(home.resolve("agents.json"), "{\"claude\": {\"command\": \"" + claude + "\"}}");
    List<Long> pids;
    try (RoundhouseProcess hub = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      awaitListening(hub);
      CliResult project = RoundhouseProcess.run(home, START, "project", "add", "web", repo.toString());
      assertThat(project.exit()).as("%s", project).isZero();
      CliResult run = RoundhouseProcess.run(home, START, "run", "--project", "web", "--prompt", "go", "--driver", "claude");
      assertThat(run.exit()).as("%s", run).isZero();
      pids = awaitPids(repo.resolve("pids"));
      assertThat(pids).allMatch(ServeReapsTurnProcessesTest::alive);
      assertThat(Files.readString(Path.of("/proc", Long.toString(pids.get(2)), "environ")))
          .as("the setsid grandchild's environment").contains("ROUNDHOUSE_RUN=", "ROUNDHOUSE_HUB=");

      hub.kill(); // SIGKILL, mid-turn
      assertThat(hub.awaitExit(START)).isEqualTo(137);
    }
    assertThat(alive(pids.get(2))).as("the setsid grandchild outlives the killed hub until the next boot").isTrue();

    try (RoundhouseProcess next = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      awaitListening(next);
      assertThat(pids).as("the agent CLI, its child and its setsid grandchild").noneMatch(ServeReapsTurnProcessesTest::alive);
      next.terminate();
      assertThat(next.awaitExit(START)).isZero();
    }
  }

  private static void awaitListening(RoundhouseProcess process) {
    process.awaitErrLine(line -> line.startsWith("roundhouse ") && line.contains(" listening on "), START);
  }

  private static List<Long> awaitPids(Path file) throws IOException {
    Waits.until("the fake agent's pids in " + file, START, () -> Files.exists(file));
    return Arrays.stream(Files.readString(file).strip().split(" ")).map(Long::parseLong).toList();
  }

  private static boolean alive(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state != 'Z' && state != 'X';
    } catch (IOException e) {
      return false;
    }
  }
}
