package dev.roundhouse.hub.schedules;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Dependents ({@code auto_start}) on a real hub: a task starts when its last blocker is done or cancelled, whichever
 * path made that change.
 */
class AutoStartTest {
  private TestHub testHub;
  private AutoStartHarness hub;
  private long blocker;
  private long dependent;

  @BeforeEach
  void open() {
    // The "closer" turns play an agent that, during its turn, marks another task done with its update_task tool.
    TestDriver driver = new TestDriver("echo", false, (request, context) -> {
      if (request.message().startsWith("close ")) {
        long target = Long.parseLong(request.message().substring("close ".length()));
        context.callTool("update_task", Json.tree(map("task", target, "status", "done")));
      }
      AutoStartHarness.answer(request, context);
    });
    testHub = TestHub.withDrivers(c -> c.withClock(AutoStartHarness.clock()), List.of(driver));
    hub = new AutoStartHarness(testHub.hub());
    hub.op("project_create", map("name", "web", "path", testHub.folder("web"), "default_agent", "echo"));
    blocker = hub.task("Build the release");
    dependent = hub.task("Write the release notes", "blocked_by", List.of(blocker), "auto_start", true);
  }

  @AfterEach
  void close() {
    hub.close();
    testHub.close();
  }

  private void assertStartedOnceByTheScheduler(long task) {
    Event started = hub.awaitSchedulerStart(task);
    assertThat(started.actor()).isEqualTo(Actor.SCHEDULER);
    hub.awaitEnd(task);
    assertThat(hub.turnsStarted(task)).isEqualTo(1);
    assertThat(hub.get(task).get("auto_start").asBoolean()).as("a fired auto_start is cleared").isFalse();
  }

  @Test
  void theUsersTaskUpdateStartsTheDependent() {
    hub.op("task_update", map("task", blocker, "status", "done"));
    assertStartedOnceByTheScheduler(dependent);
    assertThat(hub.messageOf(hub.awaitSchedulerStart(dependent))).isEqualTo("Write the release notes");
  }

  @Test
  void theUsersTaskMoveStartsTheDependent() {
    hub.op("task_move", map("tasks", List.of(blocker), "status", "done"));
    assertStartedOnceByTheScheduler(dependent);
  }

  @Test
  void anAgentsToolStartsTheDependent() {
    long other = hub.task("Another card");
    hub.op(Actor.agent(other), "update_task", map("task", blocker, "status", "done"));
    assertStartedOnceByTheScheduler(dependent);
  }

  @Test
  void anAgentToolCalledDuringATurnStartsTheDependent() {
    long closer = hub.task("Close the build");
    hub.op("turn_start", map("task", closer, "message", "close " + blocker));
    assertStartedOnceByTheScheduler(dependent);
    Event done = hub.events.seen().stream()
        .filter(e -> e.type().equals("task.updated") && Long.valueOf(blocker).equals(e.taskId()))
        .findFirst().orElseThrow();
    assertThat(done.actor()).as("the change was the turn's agent's").isEqualTo(Actor.agent(closer));
    hub.awaitEnd(closer);
  }

  @Test
  void theSchedulersChangeStartsTheDependent() {
    hub.op(Actor.SCHEDULER, "task_update", map("task", blocker, "status", "done"));
    assertStartedOnceByTheScheduler(dependent);
  }

  @Test
  void aCancelledBlockerCountsAsEnded() {
    hub.op("task_update", map("task", blocker, "status", "cancelled"));
    assertStartedOnceByTheScheduler(dependent);
  }

  @Test
  void withTwoBlockersOnlyTheLastOnesEndStartsIt() {
    long second = hub.task("Sign the build");
    hub.op("task_update", map("task", dependent, "blocked_by", List.of(blocker, second)));
    hub.op("task_update", map("task", blocker, "status", "done"));
    hub.op("task_update", map("task", second, "status", "done"));

    Event started = hub.awaitSchedulerStart(dependent);
    Event secondDone = hub.events.seen().stream()
        .filter(e -> e.type().equals("task.updated") && Long.valueOf(second).equals(e.taskId())
            && e.data().path("task").path("status").asText().equals("done"))
        .findFirst().orElseThrow();
    assertThat(started.seq()).as("started only after the second blocker ended").isGreaterThan(secondDone.seq());
    hub.awaitEnd(dependent);
    assertThat(hub.turnsStarted(dependent)).isEqualTo(1);
  }

  @Test
  void aDependentThatIsDoneCancelledOrNotMarkedDoesNotStart() {
    long done = hub.task("Already done", "status", "done", "blocked_by", List.of(blocker), "auto_start", true);
    long cancelled = hub.task("Called off", "status", "cancelled", "blocked_by", List.of(blocker), "auto_start", true);
    long unmarked = hub.task("Not marked", "blocked_by", List.of(blocker));
    long marker = hub.task("Marker", "blocked_by", List.of(blocker), "auto_start", true);

    hub.op("task_update", map("task", blocker, "status", "done"));
    // Dependents are judged in id order on one thread: once the last one (the marker) started, all were judged.
    hub.awaitSchedulerStart(dependent);
    hub.awaitSchedulerStart(marker);
    assertThat(hub.turnsStarted(done) + hub.turnsStarted(cancelled) + hub.turnsStarted(unmarked)).isZero();
    JsonNode kept = hub.get(done);
    assertThat(kept.get("auto_start").asBoolean()).as("a done task's trigger is left alone").isTrue();
    hub.awaitEnd(dependent);
    hub.awaitEnd(marker);
  }

  @Test
  void aBlockerReopenedAndEndedAgainDoesNotStartItTwice() {
    hub.op("task_update", map("task", blocker, "status", "done"));
    assertStartedOnceByTheScheduler(dependent);
    long marker = hub.task("Marker", "blocked_by", List.of(blocker), "auto_start", true);
    hub.op("task_update", map("task", blocker, "status", "todo"));
    hub.op("task_update", map("task", blocker, "status", "done"));
    hub.awaitSchedulerStart(marker);
    hub.awaitEnd(marker);
    assertThat(hub.turnsStarted(dependent)).isEqualTo(1);
  }

  @Test
  void aDependentWithAnUnknownDriverRecordsWhyItDidNotStartAndIsNotRetried() {
    hub.op("task_update", map("task", dependent, "agent", "nope-driver"));
    hub.op("task_update", map("task", blocker, "status", "done"));
    Event failed = hub.events.find("task.start_failed", AutoStartHarness.WAIT,
        e -> e.type().equals("task.start_failed") && Long.valueOf(dependent).equals(e.taskId()));
    assertThat(failed.data().get("reason").asText()).contains("nope-driver");
    assertThat(failed.data().get("triggers").toString()).isEqualTo("[\"auto_start\"]");
    assertThat(hub.get(dependent).get("auto_start").asBoolean()).isFalse();
    assertThat(hub.turnsStarted(dependent)).isZero();
  }
}
