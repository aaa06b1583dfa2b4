package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.script.ScriptDriver;
import dev.roundhouse.hub.schedules.Scheduler;
import dev.roundhouse.hub.schedules.SchedulerSettings;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.TestHub;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code roundhouse schedule …} against a real hub over HTTP. The hub's clock is the test's, and its scheduler
 * does not tick by itself: the test ticks it ({@code scheduler().tick(instant)}) to make a schedule fire.
 */
class ScheduleCommandsTest {
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z"); // a Tuesday, 11:00 in Berlin
  private static final String WEEKDAYS_AT_7 = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0";

  private final ManualClock clock = new ManualClock(START);
  private TestHub hub;
  private EventRecorder events;
  private Context cli;

  @BeforeEach
  void startHubWithAProjectAndARunbook() {
    hub = TestHub.withDrivers(c -> c.withClock(clock).withScheduler(SchedulerSettings.DEFAULTS.withEnabled(false)),
        List.of(new ScriptDriver()));
    events = new EventRecorder(hub.hub());
    cli = context(hub);
    ok(cli, "project", "add", "web", hub.folder("web"), "--agent", ScriptDriver.ID);
    ok(cli, "runbook", "add", "triage", "--project", "web", "--prompt", RunbookCommandsTest.DONE);
  }

  @AfterEach
  void stopHub() {
    events.close();
    hub.close();
  }

  @Test
  void schedulesWithAnRruleAndWithCronAreListedWithTheirNextFiringInTheirZone() {
    CliResult rrule = ok(cli, "schedule", "add", "weekday-triage", "--project", "web", "--runbook", "triage",
        "--recurrence", WEEKDAYS_AT_7, "--zone", "Europe/Berlin");
    CliResult cron = ok(cli, "schedule", "add", "standup", "--project", "web", "--prompt", "Summarise yesterday.",
        "--recurrence", "30 9 * * *", "--zone", "America/New_York", "--overlap", "queue", "--missed", "run_once");

    assertThat(rrule.out()).isEqualTo("created schedule 'weekday-triage' (1); next firing 2026-12-02 07:00 +01:00 (Europe/Berlin)\n");
    assertThat(cron.out()).isEqualTo("created schedule 'standup' (2); next firing 2026-12-01 09:30 -05:00 (America/New_York)\n");
    assertThat(ok(cli, "schedule", "list").out().lines().toList()).containsExactly(
        "ID  NAME            PROJECT  RECURRENCE                                            ZONE              NEXT                     PAUSED  LAST RUN",
        "2   standup         web      30 9 * * *                                            America/New_York  2026-12-01 09:30 -05:00  no      -",
        "1   weekday-triage  web      " + WEEKDAYS_AT_7 + "  Europe/Berlin     2026-12-02 07:00 +01:00  no      -");
    JsonNode listed = ok(cli, "schedule", "list", "--project", "web", "--json").json().path("schedules");
    assertThat(listed).hasSize(2);
    assertThat(listed.findValuesAsText("next_at")).containsExactlyInAnyOrder("2026-12-01T14:30:00Z", "2026-12-02T06:00:00Z");

    assertThat(ok(cli, "schedule", "show", "standup").out())
        .startsWith("schedule 'standup' (2)\n")
        .containsPattern("(?m)^runs +its own prompt$")
        .containsPattern("(?m)^next firing +2026-12-01 09:30 -05:00 \\(2026-12-01T14:30:00Z\\)$")
        .containsPattern("(?m)^missed +run_once$")
        .containsPattern("(?m)^overlap +queue$")
        .endsWith("prompt:\n  Summarise yesterday.\n");
    assertThat(ok(cli, "schedule", "show", "1").out()).containsPattern("(?m)^runs +runbook 'triage' \\(1\\)$");
  }

  @Test
  void previewPrintsTheNextFiringsWithTheirOffsetsAcrossADstChange() {
    CliResult tryOut = ok(cli, "schedule", "preview", "--recurrence", "0 7 * * *", "--zone", "Europe/Berlin",
        "--from", "2027-03-26T00:00:00Z", "--count", "4");

    assertThat(tryOut.out().lines().toList()).containsExactly(
        "next 4 firings of 0 7 * * * in Europe/Berlin:",
        "  Fri 2027-03-26 07:00 +01:00  2027-03-26T06:00:00Z",
        "  Sat 2027-03-27 07:00 +01:00  2027-03-27T06:00:00Z",
        "  Sun 2027-03-28 07:00 +02:00  2027-03-28T05:00:00Z",
        "  Mon 2027-03-29 07:00 +02:00  2027-03-29T05:00:00Z");

    ok(cli, "schedule", "add", "weekday-triage", "--project", "web", "--runbook", "triage", "--recurrence", WEEKDAYS_AT_7,
        "--zone", "Europe/Berlin");
    CliResult named = ok(cli, "schedule", "preview", "weekday-triage", "--count", "3");
    assertThat(named.out().lines().toList()).containsExactly(
        "next 3 firings of " + WEEKDAYS_AT_7 + " in Europe/Berlin:",
        "  Wed 2026-12-02 07:00 +01:00  2026-12-02T06:00:00Z",
        "  Thu 2026-12-03 07:00 +01:00  2026-12-03T06:00:00Z",
        "  Fri 2026-12-04 07:00 +01:00  2026-12-04T06:00:00Z");
    assertThat(ok(cli, "schedule", "preview", "1", "--count", "5", "--json").json().path("firings")).hasSize(5);

    CliResult neither = CliResult.run(cli, "schedule", "preview", "--zone", "UTC");
    assertThat(neither.exit()).isEqualTo(2);
    assertThat(neither.err()).contains("give a schedule, or --recurrence and --zone to try out");
  }

  @Test
  void pauseStopsTheNextFiringAndResumeComputesItFromNow() {
    ok(cli, "schedule", "add", "hourly", "--project", "web", "--runbook", "triage", "--recurrence", "FREQ=HOURLY", "--zone", "UTC");

    assertThat(ok(cli, "schedule", "pause", "hourly").out()).isEqualTo("paused schedule 'hourly' (1)\n");
    assertThat(ok(cli, "schedule", "list").out()).containsPattern("(?m)^1 +hourly +web +FREQ=HOURLY +UTC +- \\(paused\\) +yes +-$");
    CliResult twice = CliResult.run(cli, "schedule", "pause", "hourly");
    assertThat(twice.exit()).isEqualTo(1);
    assertThat(twice.err()).isEqualTo("roundhouse: schedule 'hourly' is already paused\n");
    assertThat(hub.hub().scheduler().tick(Instant.parse("2026-12-01T11:00:00Z")).fired()).as("paused: no firing").isZero();

    clock.set(Instant.parse("2026-12-01T12:10:00Z"));
    assertThat(ok(cli, "schedule", "resume", "hourly").out())
        .isEqualTo("resumed schedule 'hourly' (1); next firing 2026-12-01 13:00 +00:00 (UTC)\n");
    assertThat(ok(cli, "schedule", "show", "hourly", "--json").json().at("/schedule/paused").asBoolean()).isFalse();
  }

  @Test
  void runsListsAFiringWithItsStatusTaskAndReason() {
    ok(cli, "schedule", "add", "hourly", "--project", "web", "--runbook", "triage", "--recurrence", "FREQ=HOURLY", "--zone", "Asia/Kolkata");
    assertThat(ok(cli, "schedule", "runs", "hourly").out())
        .isEqualTo("schedule 'hourly' (1) has no runs yet; next firing 2026-12-01 16:30 +05:30 (Asia/Kolkata)\n");

    Scheduler.Tick fired = tickAt("2026-12-01T11:00:00Z");
    assertThat(fired.fired()).isEqualTo(1);
    events.await("turn.ended", 1);
    // The firing's own tick may already have ended the run (a tick launches before it follows).
    assertThat(fired.ended() + tickAt("2026-12-01T11:00:05Z").ended()).isEqualTo(1);
    assertThat(tickAt("2026-12-01T15:30:00Z").skipped()).as("four missed firings, skipped as one").isEqualTo(1);

    List<String> runs = ok(cli, "schedule", "runs", "hourly").out().lines().toList();
    assertThat(runs).hasSize(3);
    assertThat(runs.get(0)).matches("SCHEDULED +STATUS +TASK +REASON");
    assertThat(runs.get(1)).matches("2026-12-01 17:30 \\+05:30 +skipped +- +missed 4 firings.*skipped by the missed policy");
    assertThat(runs.get(2)).matches("2026-12-01 16:30 \\+05:30 +done +1 *.*");
    assertThat(ok(cli, "schedule", "list").out()).containsPattern("(?m)^1 +hourly .* +2026-12-01 21:30 \\+05:30 +no +skipped$");
    assertThat(ok(cli, "schedule", "runs", "hourly", "--limit", "1", "--json").json().path("runs")).hasSize(1);
    assertThat(hub.http().op("task_get", map("task", 1)).get("status").asText()).isEqualTo("done");
  }

  @Test
  void aDeniedRunSaysWhichPermissionWasDenied() {
    String wantsPermission = "{\"steps\": [{\"tool\": \"Bash\", \"input\": {\"command\": \"rm -rf build\"}, \"ask\": true,"
        + " \"result\": \"removed\", \"denied\": [{\"message\": \"I was not allowed.\"}]}]}";
    ok(cli, "schedule", "add", "cleanup", "--project", "web", "--prompt", wantsPermission, "--recurrence", "FREQ=HOURLY", "--zone", "UTC");

    Scheduler.Tick fired = tickAt("2026-12-01T11:00:00Z");
    assertThat(fired.fired()).isEqualTo(1);
    events.await("turn.ended", 1);
    assertThat(fired.ended() + tickAt("2026-12-01T11:00:05Z").ended()).isEqualTo(1);

    assertThat(ok(cli, "schedule", "runs", "cleanup").out().lines().toList().get(1))
        .matches("2026-12-01 11:00 \\+00:00 +denied +1 +1 permission was denied, first Bash: no one is watching this unattended run");
  }

  @Test
  void updateChangesTheRecurrenceAndRecomputesTheNextFiring() {
    ok(cli, "schedule", "add", "nightly", "--project", "web", "--runbook", "triage", "--recurrence", "0 2 * * *", "--zone", "UTC");

    assertThat(ok(cli, "schedule", "update", "nightly", "--recurrence", "0 7 * * *", "--zone", "Europe/Berlin").out())
        .isEqualTo("updated schedule 'nightly' (1); next firing 2026-12-02 07:00 +01:00 (Europe/Berlin)\n");
    JsonNode updated = ok(cli, "schedule", "update", "nightly", "--prompt", "Something else.", "--json").json();
    assertThat(updated.has("runbook_id")).isFalse();
    assertThat(updated.path("prompt").asText()).isEqualTo("Something else.");
    assertThat(CliResult.run(cli, "schedule", "update", "nightly").exit()).isEqualTo(2);
  }

  @Test
  void badInputIsRefusedByTheHubWithItsMessage() {
    CliResult zone = CliResult.run(cli, "schedule", "add", "x", "--project", "web", "--runbook", "triage",
        "--recurrence", "0 7 * * *", "--zone", "Mars/Olympus_Mons");
    assertThat(zone.exit()).isEqualTo(1);
    assertThat(zone.err()).isEqualTo(
        "roundhouse: unknown time zone 'Mars/Olympus_Mons': give an IANA name such as Europe/Berlin or America/New_York\n");

    CliResult both = CliResult.run(cli, "schedule", "add", "x", "--project", "web", "--runbook", "triage", "--prompt", "Also this.",
        "--recurrence", "0 7 * * *", "--zone", "UTC");
    assertThat(both.exit()).isEqualTo(1);
    assertThat(both.err()).isEqualTo(
        "roundhouse: a schedule runs a runbook or a prompt of its own: give exactly one of runbook and prompt\n");

    CliResult malformed = CliResult.run(cli, "schedule", "add", "x", "--project", "web", "--runbook", "triage",
        "--recurrence", "every tuesday", "--zone", "UTC");
    assertThat(malformed.exit()).isEqualTo(1);
    assertThat(malformed.err()).startsWith("roundhouse: ").contains("every tuesday");

    CliResult badPreview = CliResult.run(cli, "schedule", "preview", "--recurrence", "61 * * * *", "--zone", "UTC");
    assertThat(badPreview.exit()).isEqualTo(1);
    assertThat(badPreview.err()).startsWith("roundhouse: ").contains("61");

    CliResult policy = CliResult.run(cli, "schedule", "add", "x", "--project", "web", "--runbook", "triage",
        "--recurrence", "0 7 * * *", "--zone", "UTC", "--overlap", "sometimes");
    assertThat(policy.exit()).as("a policy is checked before the hub is asked").isEqualTo(2);
    assertThat(policy.err()).contains("unknown overlap policy 'sometimes'; give one of skip, queue, allow");
    assertThat(ok(cli, "schedule", "list").out()).startsWith("no schedules");
  }

  @Test
  void statusPrintsTheSchedulersHealth() {
    ok(cli, "schedule", "add", "hourly", "--project", "web", "--runbook", "triage", "--recurrence", "FREQ=HOURLY", "--zone", "UTC");
    tickAt("2026-12-01T10:30:00Z");

    CliResult status = ok(cli, "schedule", "status");

    assertThat(status.out().lines().toList()).containsExactly(
        "scheduler         off (switched off by configuration: ROUNDHOUSE_SCHEDULER=off)",
        "health            -",
        "last tick         2026-12-01T10:30:00Z (took " + hub.hub().scheduler().status().lastTickMillis() + " ms)",
        "lag               0 (no firing is overdue)",
        "next firing       2026-12-01T11:00:00Z",
        "active schedules  1",
        "open runs         0");
    JsonNode json = ok(cli, "schedule", "status", "--json").json();
    assertThat(json.path("enabled").asBoolean()).isFalse();
    assertThat(json.path("active_schedules").asInt()).isEqualTo(1);
  }

  @Test
  void deleteRemovesTheScheduleAndAnUnknownOneIsNamed() {
    ok(cli, "schedule", "add", "hourly", "--project", "web", "--runbook", "triage", "--recurrence", "FREQ=HOURLY", "--zone", "UTC");

    assertThat(ok(cli, "schedule", "delete", "hourly").out()).isEqualTo("deleted schedule 'hourly' (1)\n");
    CliResult gone = CliResult.run(cli, "schedule", "runs", "hourly");
    assertThat(gone.exit()).isEqualTo(1);
    assertThat(gone.err()).isEqualTo("roundhouse: no schedule named 'hourly'; there are none yet\n");
  }

  private Scheduler.Tick tickAt(String isoTime) {
    Instant at = Instant.parse(isoTime);
    clock.set(at);
    return hub.hub().scheduler().tick(at);
  }
}
