package dev.roundhouse.hub.turns;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.spi.TurnEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The unattended policy of turns: a question fails the run, and the session never lingers. */
class UnattendedTurnsTest {
  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;
  private long task;

  private void start(TestDriver driver) {
    // A linger time far beyond the test's waits: a turn that lingered would never end in time.
    hub = TestHub.withDrivers(
        c -> c.withRunner(RunnerSettings.DEFAULTS.withLingerTimeout(Duration.ofHours(1))), List.of(driver));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", driver.id()));
    task = http.op("task_create", map("project", "web", "title", "Nightly triage")).get("id").asLong();
  }

  @AfterEach
  void stop() {
    events.close();
    hub.close();
  }

  @Test
  void anUnattendedQuestionFailsTheRunNamingTheQuestionAndOpensNoDecision() {
    List<Optional<String>> answers = new CopyOnWriteArrayList<>();
    List<String> after = new CopyOnWriteArrayList<>();
    start(new TestDriver("q", false, (request, context) -> {
      answers.add(context.ask("Which database?", List.of("postgres", "sqlite")));
      after.add("stopped=" + context.isStopped());
      context.emit(new TurnEvent.AssistantMessage("going on without an answer"));
    }));

    http.op("turn_start", map("task", task, "message", "set up the db", "unattended", true));

    Event refused = events.await("turn.question_refused", task);
    assertThat(refused.data().get("question").asText()).isEqualTo("Which database?");
    assertThat(refused.data().get("options")).hasSize(2);
    JsonNode ended = events.await("turn.ended", task).data();
    assertThat(ended.get("status").asText()).isEqualTo("failed");
    assertThat(ended.get("reason").asText()).contains("Which database?").contains("unattended");
    assertThat(answers).containsExactly(Optional.empty());
    assertThat(after).as("the driver sees the turn stopped").containsExactly("stopped=true");
    assertThat(events.types()).doesNotContain("turn.message", "decision.opened");
    assertThat(http.op("decision_list", map("include_closed", true)).get("decisions")).isEmpty();
    JsonNode outcome = http.op("turn_outcome", map("task", task));
    assertThat(outcome.get("outcome").asText()).isEqualTo("needed_person");
    assertThat(outcome.get("refused_questions").asInt()).isEqualTo(1);
    assertThat(outcome.get("reason").asText()).contains("Which database?");
  }

  @Test
  void theAskUserToolInAnUnattendedRunFailsTheRunToo() {
    List<String> toolErrors = new CopyOnWriteArrayList<>();
    start(new TestDriver("tool", false, (request, context) -> {
      try {
        context.callTool("ask_user", JsonNodeFactory.instance.objectNode().put("question", "Ship it on Friday?"));
      } catch (RuntimeException e) {
        toolErrors.add(e.getMessage());
      }
    }));

    http.op("turn_start", map("task", task, "message", "release", "unattended", true));

    assertThat(events.await("turn.question_refused", task).data().get("question").asText()).isEqualTo("Ship it on Friday?");
    JsonNode ended = events.await("turn.ended", task).data();
    assertThat(ended.get("status").asText()).isEqualTo("failed");
    assertThat(ended.get("reason").asText()).contains("Ship it on Friday?");
    assertThat(toolErrors).singleElement().asString().contains("runs unattended");
    assertThat(http.op("turn_outcome", map("task", task)).get("outcome").asText()).isEqualTo("needed_person");
  }

  @Test
  void anAttendedQuestionStillParksOnADecision() {
    List<Optional<String>> answers = new CopyOnWriteArrayList<>();
    start(new TestDriver("q", false, (request, context) -> answers.add(context.ask("Which database?", List.of()))));

    http.op("turn_start", map("task", task, "message", "set up the db"));
    long decision = events.await("decision.opened", task).data().at("/decision/id").asLong();
    http.op("decision_answer", map("decision", decision, "answer", "sqlite"));

    assertThat(events.await("turn.ended", task).data().get("status").asText()).isEqualTo("completed");
    assertThat(answers).containsExactly(Optional.of("sqlite"));
    assertThat(events.types()).doesNotContain("turn.question_refused");
  }

  @Test
  void anUnattendedTurnNeverLingersEvenWhenItsDriverWould() {
    List<Optional<String>> next = new CopyOnWriteArrayList<>();
    start(new TestDriver("linger", true, (request, context) -> {
      context.emit(new TurnEvent.AssistantMessage("done"));
      context.emit(new TurnEvent.Result("end_turn", null));
      next.add(context.awaitNextMessage());
    }));

    http.op("turn_start", map("task", task, "message", "go", "unattended", true));

    JsonNode ended = events.await("turn.ended", task).data();
    assertThat(ended.get("status").asText()).isEqualTo("completed");
    assertThat(next).containsExactly(Optional.empty());
    assertThat(events.types()).doesNotContain("turn.lingering");
    assertThat(http.op("turn_outcome", map("task", task)).get("outcome").asText()).isEqualTo("done");
  }

  @Test
  void anAttendedTurnOfTheSameDriverLingersForTheNextMessage() {
    List<Optional<String>> next = new CopyOnWriteArrayList<>();
    start(new TestDriver("linger", true, (request, context) -> {
      context.emit(new TurnEvent.Result("end_turn", null));
      next.add(context.awaitNextMessage());
    }));

    http.op("turn_start", map("task", task, "message", "go"));
    events.await("turn.lingering", task);
    assertThat(http.op("turn_outcome", map("task", task)).get("outcome").asText()).isEqualTo("running");
    http.op("turn_send", map("task", task, "message", "and then"));

    assertThat(events.await("turn.ended", task).data().get("status").asText()).isEqualTo("completed");
    assertThat(next).containsExactly(Optional.of("and then"));
  }
}
