package dev.roundhouse.hub.turns;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.SseTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.TurnEvent;

class TurnLifecycleTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;
  private long task;

  private void start(TestDriver driver) {
    hub = TestHub.withDrivers(c -> c.withClock(clock), List.of(driver));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", driver.id()));
    task = http.op("task_create", map("project", "web", "title", "t")).get("id").asLong();
  }

  @AfterEach
  void stop() {
    events.close();
    hub.close();
  }

  @Test
  void aSilentTurnIsMarkedIdleButNotWhileParkedOnAHuman() {
    CountDownLatch speak = new CountDownLatch(1);
    start(new TestDriver("quiet", false, (request, context) -> {
      context.emit(new TurnEvent.AssistantMessage("thinking"));
      speak.await();
      context.emit(new TurnEvent.AssistantMessage("back"));
      context.requestPermission(new PermissionRequest("c", "Edit", JsonNodeFactory.instance.objectNode(), "Edit", null));
    }));
    http.op("turn_start", map("task", task, "message", "go"));
    events.await("turn.message", task);
    clock.advance(Duration.ofMinutes(19));
    hub.hub().runner().checkIdle();
    clock.advance(Duration.ofMinutes(2));
    hub.hub().runner().checkIdle();
    Event idle = events.await("turn.idle", task);
    assertThat(idle.actor().toString()).isEqualTo("scheduler");
    hub.hub().runner().checkIdle();
    speak.countDown();
    events.await("turn.active", task);
    events.await("turn.permission_requested", task);
    clock.advance(Duration.ofHours(2));
    hub.hub().runner().checkIdle();
    http.op("turn_stop", map("task", task));
    long idles = events.seen().stream().filter(e -> e.type().equals("turn.idle")).count();
    assertThat(idles).as("marked idle once, and never while parked on the permission").isEqualTo(1);
  }

  @Test
  void settingsDriftIsSilentFirstThenParksTheTurnUntilAdoptedOrDeclined() throws Exception {
    AtomicInteger agentRuns = new AtomicInteger();
    TestDriver driver = new TestDriver("drifty", false, (request, context) -> {
      agentRuns.incrementAndGet();
      context.emit(new TurnEvent.Result("end_turn", null));
    }, dir -> List.of(dir.resolve(".agent/settings.json")));
    start(driver);
    Path settings = Path.of(hub.folder("web")).resolve(".agent/settings.json");
    Files.createDirectories(settings.getParent());
    Files.writeString(settings, "{\"allow\":[]}");

    http.op("turn_start", map("task", task, "message", "first sighting"));
    assertThat(events.await("turn.ended", task).data().get("status").asText()).isEqualTo("completed");
    assertThat(http.op("decision_list", map("include_closed", true)).get("decisions")).isEmpty();

    Files.writeString(settings, "{\"allow\":[\"Bash(*)\"]}");
    http.op("turn_start", map("task", task, "message", "after a change"));
    JsonNode drift = events.await("decision.opened", task).data().get("decision");
    assertThat(drift.get("kind").asText()).isEqualTo("settings_drift");
    assertThat(drift.at("/request/files/0/path").asText()).endsWith(".agent/settings.json");
    assertThat(agentRuns).as("the agent waits for the decision").hasValue(1);
    http.op("decision_answer", map("decision", drift.get("id").asLong(), "answer", "decline"));
    JsonNode ended = events.await("turn.ended", task).data();
    assertThat(ended.get("status").asText()).isEqualTo("declined");
    assertThat(agentRuns).hasValue(1);

    http.op("turn_start", map("task", task, "message", "again"));
    long again = events.await("decision.opened", task).data().at("/decision/id").asLong();
    http.op("decision_answer", map("decision", again, "answer", "adopt"));
    assertThat(events.await("turn.ended", task).data().get("status").asText()).isEqualTo("completed");
    assertThat(agentRuns).hasValue(2);

    Files.writeString(settings, "{\"allow\":[\"everything\"]}");
    http.op("turn_start", map("task", task, "message", "unattended", "unattended", true));
    JsonNode refused = events.await("turn.ended", task).data();
    assertThat(refused.get("status").asText()).isEqualTo("failed");
    assertThat(refused.get("reason").asText()).contains("unattended runs refuse on drift");
    assertThat(agentRuns).hasValue(2);
  }

  @Test
  void theTaskStreamSendsTheSnapshotThenTailsWithDeltasAndResumesWithoutLoss() {
    CountDownLatch more = new CountDownLatch(1);
    start(new TestDriver("stream", false, (request, context) -> {
      context.emit(new TurnEvent.AssistantMessage("one"));
      more.await();
      context.emit(new TurnEvent.TextDelta("tw"));
      context.emit(new TurnEvent.TextDelta("o"));
      context.emit(new TurnEvent.AssistantMessage("two"));
    }));
    long other = http.op("task_create", map("project", "web", "title", "other")).get("id").asLong();
    http.op("turn_start", map("task", task, "message", "go"));
    events.await("turn.message", task);
    String lastId;
    try (SseTestClient sse = SseTestClient.open(http, "/api/tasks/" + task + "/stream")) {
      List<String> snapshot = new java.util.ArrayList<>();
      SseTestClient.SseEvent event;
      do {
        event = sse.next(Duration.ofSeconds(10));
        snapshot.add(event.event());
      } while (!event.event().equals("turn.message"));
      // The snapshot is this task's whole current generation, and nothing of the other task.
      assertThat(snapshot).contains("task.created", "turn.started", "turn.user_message", "turn.message");
      assertThat(snapshot).allSatisfy(type -> assertThat(type).isNotEqualTo("project.created"));
      lastId = event.id();
      http.op("task_update", map("task", other, "title", "not on this stream"));
      more.countDown();
      assertThat(sse.next(Duration.ofSeconds(10))).satisfies(e -> {
        assertThat(e.event()).isEqualTo("turn.text_delta");
        assertThat(e.id()).as("deltas are not stored, so they carry no id").isNull();
      });
      assertThat(sse.next(Duration.ofSeconds(10)).event()).isEqualTo("turn.text_delta");
      SseTestClient.SseEvent two = sse.next(Duration.ofSeconds(10));
      assertThat(two.event()).isEqualTo("turn.message");
      assertThat(two.json().at("/data/text").asText()).isEqualTo("two");
    }
    events.await("turn.ended", task);
    try (SseTestClient resumed = SseTestClient.open(http, "/api/tasks/" + task + "/stream", "Last-Event-ID", lastId)) {
      assertThat(resumed.next(Duration.ofSeconds(10)).event()).isEqualTo("turn.message");
      assertThat(resumed.next(Duration.ofSeconds(10)).event()).isEqualTo("turn.ended");
    }
    assertThat(http.get("/api/tasks/424242/stream").status()).isEqualTo(404);
  }
}
