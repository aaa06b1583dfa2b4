package dev.roundhouse.hub.turns;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.hub.testing.SseTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnEvent;

/** Kills a hub with SIGKILL in the middle of a turn and checks what the next start finds. */
class TurnCrashTest {
  @TempDir Path home;

  /** A driver that talks until it is stopped. */
  static TestDriver ticker() {
    return new TestDriver("ticker", false, (request, context) -> {
      for (int i = 0; !context.isStopped(); i++) {
        context.emit(new TurnEvent.AssistantMessage("tick " + i));
        LockSupport.parkNanos(2_000_000);
      }
    });
  }

  /** A driver that asks permission to deploy, and would say so in the transcript. */
  static TestDriver gate() {
    return new TestDriver("gate", false, (request, context) -> {
      PermissionVerdict verdict = context.requestPermission(new PermissionRequest(
          "c1", "Bash", com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), "Run: make deploy", "make deploy"));
      context.emit(new TurnEvent.AssistantMessage(verdict.allowed() ? "deployed" : "not deployed: " + verdict.reason()));
    });
  }

  /** The child process: a hub with the ticker and gate drivers, serving HTTP until it is killed. */
  public static final class ChildHub {
    public static void main(String[] args) throws Exception {
      Hub hub = Hub.open(HubConfig.forHome(Path.of(args[0])), List.of(ticker(), gate()));
      HubServer server = HubServer.start(hub);
      System.out.println("ready " + server.url());
      System.out.flush();
      Thread.currentThread().join();
    }
  }

  @Test
  void aHubKilledMidTurnRestartsWithTheTurnInterruptedEveryDeliveredEventStoredAndTheQueueIntact() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ChildHub.class.getName(), home.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    Map<Long, String> delivered = new HashMap<>();
    long task;
    try {
      String ready = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)).readLine();
      assertThat(ready).startsWith("ready ");
      String url = ready.substring("ready ".length());
      String token = Files.readString(home.resolve("token")).strip();
      var http = new dev.roundhouse.hub.testing.HttpTestClient(url, token);
      Files.createDirectories(home.resolve("repo"));
      http.op("project_create", map("name", "web", "path", home.resolve("repo").toString(), "default_agent", "ticker"));
      task = http.op("task_create", map("project", "web", "title", "long turn")).get("id").asLong();
      long gated = http.op("task_create", map("project", "web", "title", "deploy", "agent", "gate")).get("id").asLong();
      http.op("turn_start", map("task", gated, "message", "deploy it"));
      http.op("turn_start", map("task", task, "message", "talk"));
      http.op("turn_send", map("task", task, "message", "queued one"));
      http.op("turn_send", map("task", task, "message", "queued two"));
      try (SseTestClient sse = SseTestClient.open(http, "/api/events?after=0")) {
        int ticks = 0;
        boolean parked = false;
        while (ticks < 40 || !parked) {
          SseTestClient.SseEvent event = sse.next(Duration.ofSeconds(20));
          if (event.id() != null) {
            delivered.put(Long.parseLong(event.id()), event.event());
          }
          if (event.event().equals("turn.message")) {
            ticks++;
          }
          if (event.event().equals("turn.permission_requested")) {
            parked = true;
          }
        }
        child.destroyForcibly(); // SIGKILL, mid-turn
        assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
      }
      http.close();
    } finally {
      child.destroyForcibly();
    }

    try (dev.roundhouse.hub.InProcessHub restarted = Hub.open(HubConfig.forHome(home), List.of(ticker(), gate()))) {
      TurnApi.TurnList turns = restarted.operations().call(
          "turn_list", dev.roundhouse.hub.core.Actor.USER, Map.of("task", task), TurnApi.TurnList.class);
      Turn turn = turns.turns().getFirst();
      assertThat(turn.status()).isEqualTo(dev.roundhouse.hub.model.TurnStatus.INTERRUPTED);
      assertThat(turn.endReason()).contains("hub stopped");
      assertThat(turns.queue()).extracting(QueuedMessage::message).containsExactly("queued one", "queued two");

      List<Event> stored = new java.util.ArrayList<>();
      try (var stream = restarted.events().open(0, 100_000)) {
        for (var next = stream.next(Duration.ZERO); next.isPresent(); next = stream.next(Duration.ZERO)) {
          stored.add(next.get());
        }
      }
      Map<Long, String> storedTypes = new HashMap<>();
      stored.forEach(e -> storedTypes.put(e.seq(), e.type()));
      assertThat(delivered).hasSizeGreaterThan(40);
      assertThat(storedTypes).containsAllEntriesOf(delivered);
      long talking = task;
      Event last = stored.stream().filter(e -> Long.valueOf(talking).equals(e.taskId())).reduce((a, b) -> b).orElseThrow();
      assertThat(last.type()).isEqualTo("turn.ended");
      assertThat(last.data().get("status").asText()).isEqualTo("interrupted");
      assertThat(restarted.runner().runningLoops()).isZero();
      // The permission pending when the hub died was never answered: it expired, which is a denial.
      var decisions = restarted.operations().invoke("decision_list", dev.roundhouse.hub.core.Actor.USER,
          Json.tree(Map.of("include_closed", true)));
      assertThat(decisions.get("pending").asInt()).isZero();
      assertThat(decisions.at("/decisions/0/kind").asText()).isEqualTo("permission");
      assertThat(decisions.at("/decisions/0/status").asText()).isEqualTo("expired");
      assertThat(decisions.at("/decisions/0/message").asText()).contains("restarted");
      assertThat(stored).noneMatch(e -> e.type().equals("turn.message") && e.data().path("text").asText().equals("deployed"));
    }
  }
}
