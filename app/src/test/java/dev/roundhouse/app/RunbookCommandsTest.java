package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.script.ScriptDriver;
import dev.roundhouse.hub.schedules.SchedulerSettings;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.TestHub;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code roundhouse runbook …} against a real hub over HTTP, running the script driver. */
class RunbookCommandsTest {
  static final String DONE = "{\"steps\": [{\"text\": \"Triaged 3 issues.\"}]}";

  private TestHub hub;
  private EventRecorder events;
  private Context cli;

  @BeforeEach
  void startHubWithAProject() {
    hub = TestHub.withDrivers(c -> c.withScheduler(SchedulerSettings.DEFAULTS.withEnabled(false)), List.of(new ScriptDriver()));
    events = new EventRecorder(hub.hub());
    cli = context(hub);
    ok(cli, "project", "add", "web", hub.folder("web"), "--agent", ScriptDriver.ID);
  }

  @AfterEach
  void stopHub() {
    events.close();
    hub.close();
  }

  @Test
  void addedRunbooksAreListedByNameAndShownWithEveryField() {
    CliResult added = ok(cli, "runbook", "add", "triage", "--project", "web", "--prompt", "Triage the new issues.\nLabel them.",
        "--priority", "high", "--tag", "ops", "--tag", "daily", "--no-send-context");
    ok(cli, "runbook", "add", "notes", "--project", "web", "--prompt", "Write the release notes.", "--driver", ScriptDriver.ID);

    assertThat(added.out()).isEqualTo("created runbook 'triage' (1)\n");
    assertThat(ok(cli, "runbook", "list").out().lines().toList()).containsExactly(
        "ID  NAME    PROJECT  DRIVER  PRIORITY  TAGS       PROMPT",
        "2   notes   web      script  normal               Write the release notes.",
        "1   triage  web      -       high      daily,ops  Triage the new issues. Label them.");
    assertThat(ok(cli, "runbook", "show", "triage").out())
        .startsWith("runbook 'triage' (1)\n")
        .containsPattern("(?m)^project +web \\(1\\)$")
        .containsPattern("(?m)^driver +- \\(the project's default\\)$")
        .containsPattern("(?m)^priority +high$")
        .containsPattern("(?m)^send context +no$")
        .endsWith("prompt:\n  Triage the new issues.\n  Label them.\n");
    JsonNode json = ok(cli, "runbook", "show", "1", "--project", "web", "--json").json();
    assertThat(json.path("send_context").asBoolean()).isFalse();
    assertThat(ok(cli, "runbook", "list", "--project", "web", "--json").json().path("runbooks")).hasSize(2);
  }

  @Test
  void updateChangesOnlyTheFieldsGiven() {
    ok(cli, "runbook", "add", "triage", "--project", "web", "--prompt", "Triage.", "--tag", "ops", "--model", "big");

    assertThat(ok(cli, "runbook", "update", "triage", "--name", "morning-triage", "--priority", "urgent", "--model", "").out())
        .isEqualTo("updated runbook 'morning-triage' (1)\n");
    JsonNode runbook = ok(cli, "runbook", "update", "morning-triage", "--clear-tags", "--send-context", "--json").json();
    assertThat(runbook.path("priority").asText()).isEqualTo("urgent");
    assertThat(runbook.path("prompt").asText()).isEqualTo("Triage.");
    assertThat(runbook.has("model")).as("an empty --model clears it: %s", runbook).isFalse();
    assertThat(runbook.path("tags")).isEmpty();
    CliResult nothing = CliResult.run(cli, "runbook", "update", "morning-triage");
    assertThat(nothing.exit()).isEqualTo(2);
    assertThat(nothing.err()).contains("say what to change");
  }

  @Test
  void runStartsATaskAndItsTurnAndReturns() {
    ok(cli, "runbook", "add", "triage", "--project", "web", "--prompt", DONE, "--tag", "ops");

    CliResult started = ok(cli, "runbook", "run", "triage", "--unattended");

    assertThat(started.out()).matches("started task 1, turn 1 \\(unattended\\): triage · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\n");
    events.await("turn.ended", 1);
    assertThat(hub.http().op("turn_outcome", map("task", 1)).get("outcome").asText()).isEqualTo("done");
    assertThat(hub.http().op("task_get", map("task", 1)).get("tags").toString()).contains("ops", "run");
    assertThat(hub.http().op("turn_list", map("task", 1)).at("/turns/0/unattended").asBoolean()).isTrue();

    JsonNode again = ok(cli, "runbook", "run", "triage", "--json").json();
    assertThat(again.at("/task/id").asLong()).isEqualTo(2);
    assertThat(again.at("/turn/unattended").asBoolean()).isFalse();
    events.await("turn.ended", 2);
  }

  @Test
  void deleteIsRefusedWhileAScheduleRunsTheRunbookAndNamesIt() {
    ok(cli, "runbook", "add", "triage", "--project", "web", "--prompt", DONE);
    ok(cli, "schedule", "add", "weekday-triage", "--project", "web", "--runbook", "triage", "--recurrence", "0 7 * * 1-5",
        "--zone", "Europe/Berlin");

    CliResult refused = CliResult.run(cli, "runbook", "delete", "triage");

    assertThat(refused.exit()).as("%s", refused).isEqualTo(1);
    assertThat(refused.err()).isEqualTo("roundhouse: runbook 'triage' is run by schedule(s) 'weekday-triage' (1): delete them or"
        + " point them at another runbook first\n");
    ok(cli, "schedule", "delete", "weekday-triage");
    assertThat(ok(cli, "runbook", "delete", "triage").out()).isEqualTo("deleted runbook 'triage' (1)\n");
    assertThat(ok(cli, "runbook", "list").out()).startsWith("no runbooks");
    CliResult gone = CliResult.run(cli, "runbook", "show", "triage");
    assertThat(gone.exit()).isEqualTo(1);
    assertThat(gone.err()).startsWith("roundhouse: no runbook named 'triage'");
  }

  @Test
  void anUnknownDriverIsRefusedByTheHubNamingTheKnownOnes() {
    CliResult result = CliResult.run(cli, "runbook", "add", "triage", "--project", "web", "--prompt", "x", "--driver", "nope");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("roundhouse: no driver 'nope'; known drivers: script\n");
  }
}
