package dev.roundhouse.hub.schedules;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.InProcessHub;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deferred starts ({@code start_at}) on a real hub, its clock driven by the test: the sweep is called, never waited for. */
class DeferredStartTest {
  private final ManualClock clock = AutoStartHarness.clock();
  private TestHub testHub;
  private AutoStartHarness hub;

  private void open(TestDriver driver) {
    testHub = TestHub.withDrivers(c -> c.withClock(clock), List.of(driver));
    hub = new AutoStartHarness(testHub.hub());
    hub.op("project_create", map("name", "web", "path", testHub.folder("web"), "default_agent", driver.id()));
  }

  @AfterEach
  void close() {
    if (hub != null) {
      hub.close();
    }
    if (testHub != null) {
      testHub.close();
    }
  }

  private int sweepAt(Duration sinceT0) {
    clock.advance(Duration.between(clock.instant(), AutoStartHarness.T0.plus(sinceT0)));
    return hub.hub.deferredStarts().sweep(clock.instant());
  }

  @Test
  void aDeferredStartFiresAtItsTimeAndNotBefore() {
    open(AutoStartHarness.echo());
    long task = hub.task("Triage the new issues", "description", "Label each one.", "start_at",
        AutoStartHarness.T0.plus(Duration.ofHours(1)).toString());

    assertThat(sweepAt(Duration.ofMinutes(59))).isZero();
    assertThat(hub.turnsStarted(task)).as("no turn before start_at").isZero();
    assertThat(hub.get(task).get("start_at").asText()).isEqualTo("2030-01-02T09:00:00Z");

    sweepAt(Duration.ofHours(1));
    Event started = hub.awaitSchedulerStart(task);
    assertThat(started.actor()).isEqualTo(Actor.SCHEDULER);
    assertThat(hub.messageOf(started))
        .as("with nothing queued, the first message is the title and the description")
        .isEqualTo("Triage the new issues\n\nLabel each one.");
    hub.awaitEnd(task);

    JsonNode after = hub.get(task);
    assertThat(after.has("start_at")).as("a fired start is cleared").isFalse();
    assertThat(after.get("status").asText()).as("like turn_start, the column is left alone").isEqualTo("backlog");
    JsonNode edits = hub.op("task_edits", map("task", task)).get("edits");
    assertThat(edits.get(0).get("field").asText()).isEqualTo("start_at");
    assertThat(edits.get(0).get("actor").asText()).isEqualTo("scheduler");

    assertThat(sweepAt(Duration.ofHours(2))).as("a second sweep finds nothing").isZero();
    assertThat(hub.turnsStarted(task)).isEqualTo(1);
  }

  @Test
  void doneCancelledAndSuggestedTasksAreSkippedUntilASuggestionIsAccepted() {
    open(AutoStartHarness.echo());
    String due = AutoStartHarness.T0.plus(Duration.ofMinutes(5)).toString();
    long done = hub.task("Done already", "status", "done", "start_at", due);
    long cancelled = hub.task("Called off", "status", "cancelled", "start_at", due);
    long suggested = hub.task("An idea", "suggested", true, "start_at", due);

    assertThat(sweepAt(Duration.ofMinutes(10))).isZero();
    assertThat(hub.turnsStarted(done) + hub.turnsStarted(cancelled) + hub.turnsStarted(suggested)).isZero();
    assertThat(hub.get(done).get("start_at").asText()).as("a skipped task keeps its start_at").isEqualTo(due);

    hub.op("task_update", map("task", suggested, "suggested", false));
    hub.hub.deferredStarts().sweep(clock.instant());
    hub.awaitSchedulerStart(suggested);
    hub.awaitEnd(suggested);
    assertThat(hub.turnsStarted(suggested)).as("accepted, it starts once").isEqualTo(1);
    assertThat(hub.turnsStarted(done) + hub.turnsStarted(cancelled)).isZero();
  }

  @Test
  void aStartWithNoDriverIsRecordedOnTheTaskAndNotRetried() {
    open(AutoStartHarness.echo());
    long task = hub.task("Needs an agent", "agent", "nope", "start_at", AutoStartHarness.T0.plus(Duration.ofMinutes(1)).toString());

    assertThat(sweepAt(Duration.ofMinutes(2))).isZero();
    Event failed = hub.events.find("task.start_failed", AutoStartHarness.WAIT,
        e -> e.type().equals("task.start_failed") && Long.valueOf(task).equals(e.taskId()));
    assertThat(failed.actor()).isEqualTo(Actor.SCHEDULER);
    assertThat(failed.data().get("reason").asText()).contains("nope");
    assertThat(failed.data().get("triggers").toString()).isEqualTo("[\"start_at\"]");
    assertThat(hub.get(task).has("start_at")).as("consumed, so never retried").isFalse();

    assertThat(sweepAt(Duration.ofMinutes(3))).isZero();
    JsonNode edits = hub.op("task_edits", map("task", task)).get("edits");
    assertThat(edits).as("one edit, the scheduler clearing start_at once").hasSize(1);
    assertThat(edits.get(0).get("actor").asText()).isEqualTo("scheduler");
    assertThat(hub.turnsStarted(task)).isZero();
  }

  @Test
  void theOldestQueuedMessageRunsInsteadOfTheTitle() {
    CountDownLatch never = new CountDownLatch(1);
    open(new TestDriver("echo", false, (request, context) -> {
      if (request.message().equals("hold")) {
        never.await(); // until turn_stop interrupts it
      }
      AutoStartHarness.answer(request, context);
    }));
    long task = hub.task("Write the release notes");
    hub.op("turn_start", map("task", task, "message", "hold"));
    hub.op("turn_send", map("task", task, "message", "use the changelog"));
    hub.op("turn_stop", map("task", task));
    hub.awaitEnd(task);

    hub.op("task_update", map("task", task, "start_at", AutoStartHarness.T0.plus(Duration.ofMinutes(1)).toString()));
    sweepAt(Duration.ofMinutes(1));
    assertThat(hub.messageOf(hub.awaitSchedulerStart(task))).isEqualTo("use the changelog");
    hub.awaitEnd(task);
    // A next turn would begin in the very write that ended this one: none did, so the title was never queued.
    assertThat(hub.turnsStarted(task)).isEqualTo(2);
    assertThat(hub.hub.runner().queue(task)).isEmpty();
  }

  @Test
  void aDeferredStartDueWhileATurnRunsIsRecordedAndConsumed() {
    CountDownLatch release = new CountDownLatch(1);
    open(new TestDriver("echo", false, (request, context) -> {
      release.await();
      AutoStartHarness.answer(request, context);
    }));
    long task = hub.task("Already going");
    hub.op("turn_start", map("task", task, "message", "go"));
    hub.op("task_update", map("task", task, "start_at", AutoStartHarness.T0.toString()));
    hub.hub.deferredStarts().sweep(clock.instant());

    Event failed = hub.events.find("task.start_failed", AutoStartHarness.WAIT,
        e -> e.type().equals("task.start_failed") && Long.valueOf(task).equals(e.taskId()));
    assertThat(failed.data().get("reason").asText()).contains("already has turn");
    assertThat(hub.get(task).has("start_at")).isFalse();
    release.countDown();
    hub.awaitEnd(task);
    assertThat(hub.turnsStarted(task)).as("the running turn only").isEqualTo(1);
  }

  @Test
  void aDeferredStartWithAutoStartWaitsForItsBlockersToo() {
    open(AutoStartHarness.echo());
    long blocker = hub.task("Build");
    long task = hub.task("Ship", "blocked_by", List.of(blocker), "auto_start", true,
        "start_at", AutoStartHarness.T0.plus(Duration.ofHours(1)).toString());

    assertThat(sweepAt(Duration.ofHours(2))).as("the blocker is still open").isZero();
    hub.op("task_update", map("task", blocker, "status", "done"));
    hub.awaitSchedulerStart(task);
    hub.awaitEnd(task);
    JsonNode after = hub.get(task);
    assertThat(after.has("start_at")).isFalse();
    assertThat(after.get("auto_start").asBoolean()).as("both triggers are consumed").isFalse();
    assertThat(hub.turnsStarted(task)).isEqualTo(1);
  }

  @Test
  void aBlockerEndingBeforeStartAtWaitsForTheTime() {
    open(AutoStartHarness.echo());
    long blocker = hub.task("Build");
    long task = hub.task("Ship", "blocked_by", List.of(blocker), "auto_start", true,
        "start_at", AutoStartHarness.T0.plus(Duration.ofHours(1)).toString());
    long marker = hub.task("Marker", "blocked_by", List.of(blocker), "auto_start", true);

    hub.op("task_update", map("task", blocker, "status", "done"));
    // Dependents are judged in id order on one thread: once the later marker started, the task was judged too.
    hub.awaitSchedulerStart(marker);
    assertThat(hub.turnsStarted(task)).as("start_at has not come").isZero();

    sweepAt(Duration.ofHours(1));
    hub.awaitSchedulerStart(task);
    hub.awaitEnd(task);
    hub.awaitEnd(marker);
  }

  @Test
  void aDeferredStartFiresExactlyOnceAcrossAReopenOfTheHub(@TempDir Path home) throws Exception {
    Files.createDirectories(home.resolve("web"));
    HubConfig config = HubConfig.forHome(home).withClock(clock);
    long fired;
    long missed;
    try (InProcessHub first = Hub.open(config, List.of(AutoStartHarness.echo()));
        AutoStartHarness harness = new AutoStartHarness(first)) {
      harness.op("project_create", map("name", "web", "path", home.resolve("web").toString(), "default_agent", "echo"));
      fired = harness.task("Fires before the restart", "start_at", AutoStartHarness.T0.plus(Duration.ofMinutes(1)).toString());
      missed = harness.task("Due while the hub is down", "start_at", AutoStartHarness.T0.plus(Duration.ofMinutes(30)).toString());
      clock.advance(Duration.ofMinutes(2));
      first.deferredStarts().sweep(clock.instant());
      harness.awaitSchedulerStart(fired);
      harness.awaitEnd(fired);
    }

    clock.advance(Duration.ofHours(1));
    try (InProcessHub second = Hub.open(config, List.of(AutoStartHarness.echo()));
        AutoStartHarness harness = new AutoStartHarness(second)) {
      // The boot sweep starts what fell due while the hub was down, with no call from the test.
      harness.awaitSchedulerStart(missed);
      harness.awaitEnd(missed);
      second.deferredStarts().sweep(clock.instant());
      assertThat(harness.turnsStarted(fired)).as("fired once, not again after the restart").isEqualTo(1);
      assertThat(harness.turnsStarted(missed)).isEqualTo(1);
      assertThat(harness.schedulerStartsSeen(fired)).isEqualTo(1);
    }
  }
}
