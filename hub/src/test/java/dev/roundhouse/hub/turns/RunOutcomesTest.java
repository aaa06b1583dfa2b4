package dev.roundhouse.hub.turns;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.HttpTestClient.Reply;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link RunOutcomes} through {@code turn_outcome}: one turn per outcome, each judged from what the store holds. */
class RunOutcomesTest {
  private final CountDownLatch release = new CountDownLatch(1);
  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;
  private Path settings;

  /** Plays the behaviour its message names. */
  private void play(String message, dev.roundhouse.hub.spi.TurnContext context) throws Exception {
    switch (message) {
      case "done" -> context.emit(new TurnEvent.AssistantMessage("all good"));
      case "edit" -> {
        context.requestPermission(new PermissionRequest("c1", "Edit", JsonNodeFactory.instance.objectNode(), "Edit a.txt", null));
        context.emit(new TurnEvent.AssistantMessage("could not edit"));
      }
      case "edit then fail" -> {
        context.requestPermission(new PermissionRequest("c1", "Edit", JsonNodeFactory.instance.objectNode(), "Edit a.txt", null));
        throw new IllegalStateException("gave up");
      }
      case "fail" -> throw new IllegalStateException("the agent crashed");
      case "wait" -> release.await();
      default -> throw new IllegalArgumentException(message);
    }
  }

  private void start() throws Exception {
    Path folder = Files.createTempDirectory("roundhouse-outcomes-");
    settings = folder.resolve("agent-settings.json");
    hub = TestHub.withDrivers(c -> c, List.of(new TestDriver("t", false, (request, context) -> play(request.message(), context),
        dir -> List.of(settings))));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", "t"));
  }

  @AfterEach
  void stop() {
    release.countDown();
    events.close();
    hub.close();
  }

  /** Runs one turn on a new task and returns its judged outcome. */
  private JsonNode run(String message, boolean unattended) {
    long task = http.op("task_create", map("project", "web", "title", message)).get("id").asLong();
    http.op("turn_start", map("task", task, "message", message, "unattended", unattended));
    events.await("turn.ended", task);
    return http.op("turn_outcome", map("task", task));
  }

  @Test
  void aCompletedTurnWithNothingRefusedIsDone() throws Exception {
    start();
    JsonNode outcome = run("done", true);
    assertThat(outcome.get("outcome").asText()).isEqualTo("done");
    assertThat(outcome.get("status").asText()).isEqualTo("completed");
    assertThat(outcome.get("denied_permissions").asInt()).isZero();
    assertThat(outcome.get("unattended").asBoolean()).isTrue();
    assertThat(outcome.path("reason").isMissingNode() || outcome.get("reason").isNull()).as("no reason: %s", outcome).isTrue();
  }

  @Test
  void aDeniedPermissionMakesACompletedOrFailedTurnDenied() throws Exception {
    start();
    JsonNode completed = run("edit", true);
    assertThat(completed.get("status").asText()).isEqualTo("completed");
    assertThat(completed.get("outcome").asText()).isEqualTo("denied");
    assertThat(completed.get("denied_permissions").asInt()).isEqualTo(1);
    assertThat(completed.get("reason").asText()).contains("1 permission was denied", "Edit", "unattended");

    JsonNode failed = run("edit then fail", true);
    assertThat(failed.get("status").asText()).isEqualTo("failed");
    assertThat(failed.get("outcome").asText()).isEqualTo("denied");
    assertThat(failed.get("reason").asText()).contains("then the turn failed: gave up");
  }

  @Test
  void aFailedTurnIsFailedWithItsReason() throws Exception {
    start();
    JsonNode outcome = run("fail", true);
    assertThat(outcome.get("outcome").asText()).isEqualTo("failed");
    assertThat(outcome.get("reason").asText()).isEqualTo("the agent crashed");
  }

  @Test
  void aRunningTurnIsRunningAndAStoppedOneFailed() throws Exception {
    start();
    long task = http.op("task_create", map("project", "web", "title", "wait")).get("id").asLong();
    long turn = http.op("turn_start", map("task", task, "message", "wait", "unattended", true)).at("/turn/id").asLong();

    JsonNode running = http.op("turn_outcome", map("task", task, "turn", turn));
    assertThat(running.get("outcome").asText()).isEqualTo("running");
    assertThat(running.get("status").asText()).isEqualTo("running");

    http.op("turn_stop", map("task", task));
    JsonNode stopped = http.op("turn_outcome", map("task", task, "turn", turn));
    assertThat(stopped.get("status").asText()).isEqualTo("stopped");
    assertThat(stopped.get("outcome").asText()).isEqualTo("failed");
  }

  @Test
  void settingsDriftInAnUnattendedRunNeededAPerson() throws Exception {
    start();
    Files.writeString(settings, "{\"allow\":[]}");
    assertThat(run("done", true).get("outcome").asText()).as("a first sighting is adopted silently").isEqualTo("done");
    Files.writeString(settings, "{\"allow\":[\"everything\"]}");

    JsonNode outcome = run("done", true);

    assertThat(outcome.get("status").asText()).isEqualTo("failed");
    assertThat(outcome.get("outcome").asText()).isEqualTo("needed_person");
    assertThat(outcome.get("reason").asText()).contains("unattended runs refuse on drift");
    assertThat(events.types()).contains("turn.drift_refused");
  }

  @Test
  void theLatestTurnIsTheDefaultAndAnotherTasksTurnIsNotFound() throws Exception {
    start();
    long task = http.op("task_create", map("project", "web", "title", "two turns")).get("id").asLong();
    long first = http.op("turn_start", map("task", task, "message", "fail", "unattended", true)).at("/turn/id").asLong();
    events.await("turn.ended", task);
    long second = http.op("turn_start", map("task", task, "message", "done", "unattended", true)).at("/turn/id").asLong();
    events.await("turn.ended", task);

    assertThat(http.op("turn_outcome", map("task", task)).get("turn").asLong()).isEqualTo(second);
    assertThat(http.op("turn_outcome", map("task", task, "turn", first)).get("outcome").asText()).isEqualTo("failed");
    long other = http.op("task_create", map("project", "web", "title", "no turns")).get("id").asLong();
    Reply foreign = http.post("/api/ops/turn_outcome", "{\"task\":" + other + ",\"turn\":" + first + "}");
    assertThat(foreign.status()).isEqualTo(404);
    assertThat(foreign.errorMessage()).contains("no turn " + first + " on task " + other);
    Reply none = http.post("/api/ops/turn_outcome", "{\"task\":" + other + "}");
    assertThat(none.status()).isEqualTo(404);
    assertThat(none.errorMessage()).contains("has no turns yet");
  }
}
