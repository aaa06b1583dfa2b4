package dev.roundhouse.hub.schedules;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.Event;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.schedules.Scheduler.Tick;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scheduler's tick against a real hub: firing, missed and overlap policies, pause, failures, health. */
class SchedulerTest {
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
  private final ManualClock clock = new ManualClock(START);
  private final CountDownLatch release = new CountDownLatch(1);
  private volatile boolean block;
  private final List<TurnRequest> requests = new java.util.concurrent.CopyOnWriteArrayList<>();
  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;

  private void start() {
    start(false);
  }

  /** A hub whose scheduler ticks on its own thread too ({@code ticking}), or only when the test ticks it. */
  private void start(boolean ticking) {
    TestDriver driver = new TestDriver("test", false, (request, context) -> {
      requests.add(request);
      if (request.message().contains("edit")) {
        context.requestPermission(new PermissionRequest("c1", "Edit", JsonNodeFactory.instance.objectNode(), "Edit a.txt", null));
      }
      if (block) {
        release.await();
      }
    });
    hub = TestHub.withDrivers(c -> c.withClock(clock).withScheduler(SchedulerSettings.DEFAULTS.withEnabled(ticking)), List.of(driver));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", "test"));
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (events != null) {
      events.close();
    }
    if (hub != null) {
      hub.close();
    }
  }

  private JsonNode hourly(String name, Object... more) {
    var input = map("project", "web", "name", name, "prompt", "triage the new issues", "recurrence", "FREQ=HOURLY", "zone", "UTC");
    for (int i = 0; i < more.length; i += 2) {
      input.put((String) more[i], more[i + 1]);
    }
    return http.op("schedule_create", input);
  }

  private Tick tickAt(String isoTime) {
    Instant at = Instant.parse(isoTime);
    clock.advance(Duration.between(clock.instant(), at));
    return hub.hub().scheduler().tick(at);
  }

  private JsonNode runs(String schedule) {
    return http.op("schedule_runs", map("schedule", schedule)).get("runs");
  }

  /**
   * Waits for the run's turn to end, then ticks so the scheduler follows it (the firing's own tick may have
   * ended it already: the test driver's turns end at once, and a tick launches before it follows).
   */
  private void finishRun(long task, String isoTime) {
    events.await("turn.ended", task);
    tickAt(isoTime);
    assertThat(http.op("schedule_list", map()).get("schedules").findValues("last_run").stream()
        .filter(run -> run.path("task_id").asLong() == task).map(run -> run.get("status").asText()))
        .as("the run of task %d has ended", task).singleElement().isNotIn("pending", "running");
  }

  @Test
  void aFiringRunsOnceAtItsTimeUnattendedAndItsTaskEndsDone() {
    start();
    JsonNode schedule = hourly("triage");
    assertThat(schedule.get("next_at").asText()).isEqualTo("2026-12-01T11:00:00Z");

    assertThat(tickAt("2026-12-01T10:59:59Z")).isEqualTo(new Tick(0, 0, 0, 0, 0));
    Tick fired = tickAt("2026-12-01T11:00:00Z");
    assertThat(fired.fired()).isEqualTo(1);
    assertThat(fired.launched()).isEqualTo(1);
    JsonNode run = runs("triage").get(0);
    long task = run.get("task_id").asLong();
    assertThat(run.get("scheduled_at").asText()).isEqualTo("2026-12-01T11:00:00Z");
    Event started = events.await("turn.started", task);
    assertThat(started.data().get("unattended").asBoolean()).isTrue();
    assertThat(started.actor().toString()).isEqualTo("scheduler");

    finishRun(task, "2026-12-01T11:00:01Z");
    assertThat(runs("triage").get(0).get("status").asText()).isEqualTo("done");
    assertThat(http.op("task_get", map("task", task)).get("status").asText()).isEqualTo("done");
    assertThat(http.op("task_get", map("task", task)).get("tags").toString()).contains("run");

    // The same time again, and a clock that went back: nothing fires twice.
    assertThat(tickAt("2026-12-01T11:00:02Z").fired()).isZero();
    assertThat(tickAt("2026-12-01T10:30:00Z").fired()).isZero();
    assertThat(runs("triage")).hasSize(1);
    assertThat(http.op("schedule_get", map("schedule", "triage")).get("schedule").get("next_at").asText())
        .isEqualTo("2026-12-01T12:00:00Z");
  }

  @Test
  void missedFiringsAreSkippedAsOneRecordByDefault() {
    start();
    hourly("triage");
    Tick tick = tickAt("2026-12-01T15:30:00Z");
    assertThat(tick.fired()).isZero();
    assertThat(tick.skipped()).isEqualTo(1);
    JsonNode run = runs("triage").get(0);
    assertThat(run.get("status").asText()).isEqualTo("skipped");
    assertThat(run.get("scheduled_at").asText()).isEqualTo("2026-12-01T11:00:00Z");
    assertThat(run.get("reason").asText()).contains("missed 5 firings", "2026-12-01 11:00", "2026-12-01 15:00", "skipped");
    assertThat(http.op("schedule_get", map("schedule", "triage")).get("schedule").get("next_at").asText())
        .isEqualTo("2026-12-01T16:00:00Z");
  }

  @Test
  void missedFiringsRunOnceWhenThePolicySaysSo() {
    start();
    hourly("triage", "missed", "run_once");
    Tick tick = tickAt("2026-12-01T13:30:00Z");
    assertThat(tick.fired()).isEqualTo(1);
    JsonNode run = runs("triage").get(0);
    assertThat(run.get("reason").asText()).contains("missed 3 firings", "run once");
    finishRun(run.get("task_id").asLong(), "2026-12-01T13:30:01Z");
    assertThat(runs("triage")).hasSize(1);
  }

  @Test
  void aFiringWithinTheGraceIsOnTimeAndEachRuns() {
    start();
    hourly("triage", "overlap", "allow");
    Tick tick = tickAt("2026-12-01T12:05:00Z"); // 11:00 is 65 min late (missed), 12:00 is 5 min late (on time)
    assertThat(tick.skipped()).isEqualTo(1);
    assertThat(tick.fired()).isEqualTo(1);
    List<String> runs = new java.util.ArrayList<>();
    runs("triage").forEach(r -> runs.add(r.get("scheduled_at").asText() + " " + r.get("status").asText()));
    assertThat(runs.get(1)).isEqualTo("2026-12-01T11:00:00Z skipped");
    // The on-time run's turn may already have ended within its own tick (the test driver's turns end at once).
    assertThat(runs.get(0)).isIn("2026-12-01T12:00:00Z running", "2026-12-01T12:00:00Z done");
    assertThat(runs).hasSize(2);
  }

  @Test
  void overlapSkipRecordsTheFiringWhileThePreviousRunGoes() {
    block = true;
    start();
    hourly("triage");
    tickAt("2026-12-01T11:00:00Z");
    long first = runs("triage").get(0).get("task_id").asLong();
    events.await("turn.started", first);
    Tick second = tickAt("2026-12-01T12:00:00Z");
    assertThat(second.skipped()).isEqualTo(1);
    assertThat(runs("triage").get(0).get("reason").asText()).contains("previous run (task " + first + ") was still going");
  }

  @Test
  void overlapQueueStartsTheFiringAfterThePreviousRunEnds() {
    block = true;
    start();
    hourly("triage", "overlap", "queue");
    tickAt("2026-12-01T11:00:00Z");
    long first = runs("triage").get(0).get("task_id").asLong();
    events.await("turn.started", first);
    assertThat(tickAt("2026-12-01T12:00:00Z").queued()).isEqualTo(1);
    assertThat(runs("triage").get(0).get("status").asText()).isEqualTo("queued");
    assertThat(runs("triage").get(0).has("task_id")).isFalse();

    block = false;
    release.countDown();
    events.await("turn.ended", first);
    Tick after = tickAt("2026-12-01T12:01:00Z");
    assertThat(after.ended()).isEqualTo(1);
    assertThat(after.fired()).isEqualTo(1);
    assertThat(after.launched()).isEqualTo(1);
    JsonNode promoted = runs("triage").get(0);
    Event started = events.find("the queued run's second schedule.fired", Duration.ofSeconds(5),
        e -> e.type().equals("schedule.fired") && "pending".equals(e.data().path("run").path("status").asText())
            && "2026-12-01T12:00:00Z".equals(e.data().path("run").path("scheduled_at").asText()));
    assertThat(started.taskId()).isEqualTo(promoted.get("task_id").asLong());
    assertThat(promoted.get("scheduled_at").asText()).isEqualTo("2026-12-01T12:00:00Z");
    assertThat(promoted.get("status").asText()).isEqualTo("running");
    assertThat(promoted.get("task_id").asLong()).isNotEqualTo(first);
  }

  @Test
  void manyRunsThatEndTogetherAreEndedByOneTickAndNoneWhileTheyGo() {
    block = true;
    start();
    int count = 20;
    for (int i = 0; i < count; i++) {
      hourly("triage " + i);
    }
    Tick fired = tickAt("2026-12-01T11:00:00Z");
    assertThat(fired.fired()).isEqualTo(count);
    assertThat(fired.launched()).isEqualTo(count);
    long[] tasks = new long[count];
    for (int i = 0; i < count; i++) {
      tasks[i] = runs("triage " + i).get(0).get("task_id").asLong();
      long task = tasks[i];
      events.find("turn.started on task " + task, Duration.ofSeconds(20), e -> e.type().equals("turn.started") && Long.valueOf(task).equals(e.taskId()));
    }
    assertThat(tickAt("2026-12-01T11:00:01Z").ended()).isZero();
    for (int i = 0; i < count; i++) {
      assertThat(runs("triage " + i).get(0).get("status").asText()).isEqualTo("running");
    }

    block = false;
    release.countDown();
    for (long task : tasks) {
      events.find("turn.ended on task " + task, Duration.ofSeconds(20), e -> e.type().equals("turn.ended") && Long.valueOf(task).equals(e.taskId()));
    }
    assertThat(tickAt("2026-12-01T11:00:02Z").ended()).isEqualTo(count);
    for (int i = 0; i < count; i++) {
      assertThat(runs("triage " + i).get(0).get("status").asText()).isEqualTo("done");
      assertThat(http.op("task_get", map("task", tasks[i])).get("status").asText()).isEqualTo("done");
    }
    assertThat(tickAt("2026-12-01T11:00:03Z").ended()).isZero();
  }

  @Test
  void overlapAllowRunsBesideThePreviousRun() {
    block = true;
    start();
    hourly("triage", "overlap", "allow");
    tickAt("2026-12-01T11:00:00Z");
    tickAt("2026-12-01T12:00:00Z");
    assertThat(runs("triage")).extracting(r -> r.get("status").asText()).containsExactly("running", "running");
  }

  @Test
  void aPausedScheduleDoesNotFireAndResumesFromNow() {
    start();
    hourly("triage");
    http.op("schedule_pause", map("schedule", "triage"));
    assertThat(tickAt("2026-12-01T11:00:00Z").fired()).isZero();
    JsonNode resumed = http.op("schedule_resume", map("schedule", "triage"));
    assertThat(resumed.get("next_at").asText()).isEqualTo("2026-12-01T12:00:00Z");
    assertThat(runs("triage")).isEmpty();
    assertThat(http.op("scheduler_status", map()).get("active_schedules").asInt()).isEqualTo(1);
  }

  @Test
  void aRunWhoseTurnCannotStartEndsFailedSayingWhy() {
    start();
    http.op("project_create", map("name", "bare", "path", hub.folder("bare")));
    http.op("schedule_create", map("project", "bare", "name", "nightly", "prompt", "go", "recurrence", "FREQ=HOURLY",
        "zone", "UTC"));
    tickAt("2026-12-01T11:00:00Z");
    JsonNode run = runs("nightly").get(0);
    assertThat(run.get("status").asText()).isEqualTo("failed");
    assertThat(run.get("reason").asText()).contains("the turn could not start");
    assertThat(tickAt("2026-12-01T11:00:30Z").launched()).isZero();
  }

  @Test
  void aLateSchedulerIsReportedStuckWithItsLag() {
    start(true);
    hourly("triage"); // wakes the scheduler: it ticks at 10:00, then waits up to its 30 s tick
    Waits.until("the scheduler's first tick", Duration.ofSeconds(20),
        () -> http.op("scheduler_status", map()).has("last_tick"));
    clock.advance(Duration.ofMinutes(80)); // 11:20: the 11:00 firing is 20 min overdue, and no tick since 10:00
    JsonNode status = http.op("scheduler_status", map());
    assertThat(status.get("enabled").asBoolean()).isTrue();
    assertThat(status.get("stuck").asBoolean()).isTrue();
    assertThat(status.get("lag_millis").asLong()).isEqualTo(Duration.ofMinutes(20).toMillis());
    assertThat(status.get("reason").asText()).contains("last tick was 4800 s ago");
    JsonNode health = Json.read(http.get("/api/health").raw().body(), JsonNode.class);
    assertThat(health.get("status").asText()).isEqualTo("degraded");
    assertThat(health.get("scheduler").get("next_firing").asText()).isEqualTo("2026-12-01T11:00:00Z");

    hub.hub().scheduler().tick(clock.instant());
    assertThat(http.op("scheduler_status", map()).get("stuck").asBoolean()).isFalse();
  }

  @Test
  void aSchedulerSwitchedOffSaysSoAndIsNotStuck() {
    start(false);
    hourly("triage");
    clock.advance(Duration.ofHours(3));
    JsonNode status = http.op("scheduler_status", map());
    assertThat(status.get("enabled").asBoolean()).isFalse();
    assertThat(status.get("stuck").asBoolean()).isFalse();
    assertThat(status.get("lag_millis").asLong()).isEqualTo(Duration.ofHours(2).toMillis());
    assertThat(runs("triage")).isEmpty();
  }

  @Test
  void aPermissionThatWouldAskIsDeniedRecordedAndTheRunReportsIt() {
    start();
    http.op("schedule_create", map("project", "web", "name", "fixer", "prompt", "edit the readme", "recurrence",
        "0 * * * *", "zone", "Europe/Berlin"));
    tickAt("2026-12-01T11:00:00Z");
    long task = runs("fixer").get(0).get("task_id").asLong();
    Event denied = events.await("turn.permission_denied", task);
    assertThat(denied.data().get("reason").asText()).contains("unattended");
    finishRun(task, "2026-12-01T11:00:01Z");
    assertThat(runs("fixer").get(0).get("status").asText()).isEqualTo("denied");
    assertThat(http.op("decision_list", map()).get("pending").asInt()).isZero();
    // A denied run's task stays where it was, for a person to look at.
    assertThat(http.op("task_get", map("task", task)).get("status").asText()).isEqualTo("in_progress");
  }

  @Test
  void aRunbookRunMintsATaskWithItsSettingsAndLeavesOutTheProjectContextWhenAsked() {
    start();
    http.op("project_update", map("project", "web", "context", "PROJECT CONTEXT"));
    http.op("runbook_create", map("project", "web", "name", "Release notes", "prompt", "write the release notes",
        "priority", "high", "tags", List.of("docs"), "send_context", false));
    JsonNode started = http.op("runbook_run", map("runbook", "release notes"));
    long task = started.get("task").get("id").asLong();
    assertThat(started.get("task").get("priority").asText()).isEqualTo("high");
    assertThat(started.get("task").get("tags").toString()).contains("docs", "run");
    assertThat(started.get("turn").get("unattended").asBoolean()).isFalse();
    events.await("turn.ended", task);
    TurnRequest request = requests.getLast();
    assertThat(request.message()).isEqualTo("write the release notes");
    assertThat(request.context()).doesNotContain("PROJECT CONTEXT").contains("Release notes");

    http.op("runbook_update", map("runbook", "Release notes", "send_context", true));
    long second = http.op("runbook_run", map("runbook", "Release notes", "unattended", true)).get("task").get("id").asLong();
    events.await("turn.ended", second);
    assertThat(requests.getLast().context()).contains("PROJECT CONTEXT");
    assertThat(requests.getLast().unattended()).isTrue();
  }

  @Test
  void aScheduleRunsItsRunbookAndTheRunbookCannotBeDeletedUnderIt() {
    start();
    http.op("runbook_create", map("project", "web", "name", "triage", "prompt", "triage the issues"));
    JsonNode schedule = http.op("schedule_create", map("project", "web", "name", "weekday mornings", "runbook", "triage",
        "recurrence", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0", "zone", "Europe/Berlin"));
    assertThat(schedule.get("next_at").asText()).isEqualTo("2026-12-02T06:00:00Z"); // Wednesday 07:00 in Berlin
    var refused = http.post("/api/ops/runbook_delete", "{\"runbook\":\"triage\"}");
    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.errorMessage()).contains("weekday mornings");

    tickAt("2026-12-02T06:00:00Z");
    long task = runs("weekday mornings").get(0).get("task_id").asLong();
    events.await("turn.ended", task);
    assertThat(requests.getLast().message()).isEqualTo("triage the issues");
    assertThat(http.op("task_get", map("task", task)).get("title").asText())
        .isEqualTo("weekday mornings · 2026-12-02 07:00 +01:00");
    JsonNode list = http.op("schedule_list", map("project", "web")).get("schedules").get(0);
    assertThat(list.get("runbook").asText()).isEqualTo("triage");
    assertThat(list.get("last_run").get("task_id").asLong()).isEqualTo(task);
  }

  @Test
  void badSchedulesAreRefusedNamingWhatIsWrong() {
    start();
    assertThat(refusal("schedule_create", map("project", "web", "name", "x", "prompt", "p", "recurrence", "FREQ=DAILY",
        "zone", "Mars/Olympus"))).contains("unknown time zone 'Mars/Olympus'");
    assertThat(refusal("schedule_create", map("project", "web", "name", "x", "recurrence", "FREQ=DAILY", "zone", "UTC")))
        .contains("exactly one of runbook and prompt");
    assertThat(refusal("schedule_create", map("project", "web", "name", "x", "prompt", "p", "recurrence", "0 25 * * *",
        "zone", "UTC"))).contains("hour field");
    assertThat(refusal("schedule_create", map("project", "web", "name", "42", "prompt", "p", "recurrence", "@daily",
        "zone", "UTC"))).contains("must not be all digits");
    hourly("triage");
    assertThat(refusal("schedule_create", map("project", "web", "name", "TRIAGE", "prompt", "p", "recurrence", "@daily",
        "zone", "UTC"))).contains("already has a schedule named 'triage'");
    assertThat(refusal("schedule_get", map("schedule", "nope"))).contains("no schedule named 'nope'", "triage");
    assertThat(refusal("schedule_preview", map("recurrence", "@daily", "zone", "UTC", "count", 0))).contains("count");
    assertThat(refusal("runbook_create", map("project", "web", "name", "r", "prompt", "p", "driver", "nope")))
        .contains("no driver 'nope'");
  }

  @Test
  void previewListsTheNextFiringsWithTheirWallClockTimes() {
    start();
    JsonNode preview = http.op("schedule_preview", map("recurrence", "30 2 * * *", "zone", "America/New_York",
        "from", "2027-03-13T00:00:00Z", "count", 2));
    assertThat(preview.get("firings")).extracting(f -> f.get("local").asText())
        .containsExactly("2027-03-13T02:30:00-05:00", "2027-03-14T03:00:00-04:00");
  }

  @Test
  void twoTicksAtOnceFireEachFiringOnceAndStartEachRunOnce() throws Exception {
    start();
    for (int i = 0; i < 20; i++) {
      hourly("s" + i, "overlap", "allow");
    }
    Instant at = Instant.parse("2026-12-01T11:00:00Z");
    clock.advance(Duration.between(clock.instant(), at));
    var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      java.util.concurrent.Callable<Tick> tick = () -> hub.hub().scheduler().tick(at);
      var ticks = pool.invokeAll(List.of(tick, tick));
      int fired = 0;
      int launched = 0;
      for (var done : ticks) {
        fired += done.get().fired();
        launched += done.get().launched();
      }
      assertThat(fired).as("firings claimed by the two ticks together").isEqualTo(20);
      assertThat(launched).as("turns started by the two ticks together").isEqualTo(20);
    } finally {
      pool.shutdownNow();
    }
    for (int i = 0; i < 20; i++) {
      JsonNode runs = runs("s" + i);
      assertThat(runs).hasSize(1);
      long task = runs.get(0).get("task_id").asLong();
      events.find("the turn of task " + task, Duration.ofSeconds(20), e -> e.type().equals("turn.ended") && e.taskId() == task);
      assertThat(http.op("turn_list", map("task", task)).get("turns")).hasSize(1);
    }
  }

  private String refusal(String op, Object input) {
    var reply = http.post("/api/ops/" + op, Json.write(input));
    assertThat(reply.status()).as("%s answers an error", op).isBetween(400, 499);
    return reply.errorMessage();
  }
}
