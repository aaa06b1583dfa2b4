package dev.roundhouse.hub.turns;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.InProcessHub;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.Waits;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No process a turn starts outlives it: a driver that starts an agent-like tree (a leader, a child in its group,
 * a grandchild that left with {@code setsid}) through the turn's launcher, as every driver does. Stopped with
 * {@code turn_stop}, and with the hub killed by SIGKILL in a real process and started again.
 */
class TurnProcessesTest {
  /** Writes the pids of the leader, its child and its setsid grandchild to {@code $PIDS}, then waits. */
  private static final String TREE = "sleep 1000 & c=$!; setsid sh -c 'echo $$ > \"$PIDS.g\"; exec sleep 1000' & "
      + "while [ ! -s \"$PIDS.g\" ]; do :; done; echo $$ $c $(cat \"$PIDS.g\") > \"$PIDS.tmp\"; mv \"$PIDS.tmp\" \"$PIDS\"; wait";

  @TempDir Path home;

  /** A driver that starts the tree in the turn's folder and waits until the turn is stopped. */
  static TestDriver spawner() {
    return new TestDriver("spawner", false, (request, context) -> {
      ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", TREE).directory(request.workingDirectory().toFile());
      builder.environment().put("PIDS", request.workingDirectory().resolve("pids").toString());
      Process leader = context.processes().start(builder);
      context.onStop(() -> leader.toHandle().destroy()); // as a driver does: its own process only
      context.emit(new TurnEvent.AssistantMessage("started " + leader.pid()));
      leader.waitFor();
    });
  }

  /** The child process: a hub with the spawner driver, serving HTTP until it is killed. */
  public static final class ChildHub {
    public static void main(String[] args) throws Exception {
      Hub hub = Hub.open(HubConfig.forHome(Path.of(args[0])), List.of(spawner()));
      HubServer server = HubServer.start(hub);
      System.out.println("ready " + server.url());
      System.out.flush();
      Thread.currentThread().join();
    }
  }

  @Test
  void turnStopKillsASetsidGrandchild() throws Exception {
    try (InProcessHub hub = Hub.open(HubConfig.forHome(home), List.of(spawner()))) {
      Path repo = Files.createDirectories(home.resolve("repo"));
      long task = startTurn(hub, repo);
      List<Long> pids = awaitPids(repo);
      assertThat(pids).allMatch(TurnProcessesTest::alive);

      hub.operations().invoke("turn_stop", Actor.USER, Json.tree(map("task", task)));

      Waits.until("the turn to end", Duration.ofSeconds(30), () -> hub.runner().runningLoops() == 0);
      assertThat(pids).as("leader, child, setsid grandchild").noneMatch(TurnProcessesTest::alive);
      assertThat(hub.processContainment().summary()).contains("run marker and process group");
    }
  }

  @Test
  void aHubKilledMidTurnLeavesNothingAfterItsNextBoot() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Path repo = Files.createDirectories(home.resolve("repo"));
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ChildHub.class.getName(), home.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    List<Long> pids;
    boolean parentDeath;
    try {
      String ready = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)).readLine();
      assertThat(ready).startsWith("ready ");
      try (HttpTestClient http = new HttpTestClient(ready.substring("ready ".length()), Files.readString(home.resolve("token")).strip())) {
        http.op("project_create", map("name", "web", "path", repo.toString(), "default_agent", "spawner"));
        long task = http.op("task_create", map("project", "web", "title", "leaves processes")).get("id").asLong();
        http.op("turn_start", map("task", task, "message", "go"));
        pids = awaitPids(repo);
        assertThat(pids).allMatch(TurnProcessesTest::alive);
        assertThat(Files.readString(Path.of("/proc", Long.toString(pids.get(2)), "environ")))
            .as("the grandchild carries the turn's marker").contains("ROUNDHOUSE_RUN=");
        parentDeath = http.get("/api/health").body().path("processes").path("active").asText().contains("parent-death");
      }
      child.destroyForcibly(); // SIGKILL, mid-turn
      assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    if (parentDeath) {
      // The kernel kills the hub's direct child at once; its own children wait for the next boot.
      Waits.until("the leader to die with the hub", Duration.ofSeconds(10), () -> !alive(pids.get(0)));
    }
    assertThat(alive(pids.get(2))).as("the setsid grandchild before the next boot").isTrue();

    try (InProcessHub restarted = Hub.open(HubConfig.forHome(home), List.of(spawner()))) {
      assertThat(pids).as("leader, child, setsid grandchild after the next boot").noneMatch(TurnProcessesTest::alive);
    }
  }

  private static long startTurn(InProcessHub hub, Path repo) {
    hub.operations().invoke("project_create", Actor.USER, Json.tree(map("name", "web", "path", repo.toString(), "default_agent", "spawner")));
    long task = hub.operations().invoke("task_create", Actor.USER, Json.tree(map("project", "web", "title", "leaves processes"))).get("id").asLong();
    hub.operations().invoke("turn_start", Actor.USER, Json.tree(map("task", task, "message", "go")));
    return task;
  }

  private static List<Long> awaitPids(Path repo) {
    Path file = repo.resolve("pids");
    Waits.until("the tree's pids in " + file, Duration.ofSeconds(30), () -> Files.exists(file));
    try {
      return Arrays.stream(Files.readString(file).strip().split(" ")).map(Long::parseLong).toList();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static boolean alive(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state != 'Z' && state != 'X';
    } catch (IOException e) {
      return false;
    }
  }
}
