package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.testing.TestHub;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TaskCommandsTest {
  private TestHub hub;
  private Context cli;

  @BeforeEach
  void startHubWithAProject() {
    hub = TestHub.start();
    cli = context(hub);
    ok(cli, "project", "add", "web", hub.folder("web"));
  }

  @AfterEach
  void stopHub() {
    hub.close();
  }

  @Test
  void taskAddJoinsTheTitleWordsAndTaskListShowsIt() {
    CliResult added = ok(cli, "task", "add", "--project", "web", "Fix", "the", "build", "--priority", "high", "--tag", "ci", "--tag", "build");

    assertThat(added.out()).isEqualTo("created task 1 [backlog] Fix the build\n");
    CliResult list = ok(cli, "task", "list");
    assertThat(list.out().lines().toList())
        .containsExactly(
            "ID  PROJECT  STATUS   PRIORITY  TITLE          TAGS",
            "1   web      backlog  high      Fix the build  build,ci");
  }

  @Test
  void taskListFiltersByStatusTagAndText() {
    ok(cli, "task", "add", "--project", "web", "Alpha", "--status", "todo", "--tag", "ui");
    ok(cli, "task", "add", "--project", "web", "Beta", "--status", "in_progress");
    ok(cli, "task", "add", "--project", "web", "Gamma", "--status", "done", "--tag", "ui");

    assertThat(titles(ok(cli, "task", "list", "--status", "todo", "--status", "in_progress", "--json")))
        .containsExactlyInAnyOrder("Alpha", "Beta");
    assertThat(titles(ok(cli, "task", "list", "--status", "todo,done", "--json"))).containsExactlyInAnyOrder("Alpha", "Gamma");
    assertThat(titles(ok(cli, "task", "list", "--tag", "ui", "--json"))).containsExactlyInAnyOrder("Alpha", "Gamma");
    assertThat(titles(ok(cli, "task", "list", "--text", "amm", "--json"))).containsExactly("Gamma");
    assertThat(titles(ok(cli, "task", "list", "--project", "web", "--limit", "1", "--json"))).hasSize(1);
    assertThat(ok(cli, "task", "list", "--limit", "1").out()).contains("(more tasks match; see the next page with --offset 1)");
    assertThat(ok(cli, "task", "list", "--text", "nothing like it").out()).isEqualTo("no tasks\n");
  }

  @Test
  void startAtAndAutoStartAreSetShownAndClearedFromTheCommandLine() throws Exception {
    ok(cli, "task", "add", "--project", "web", "Release notes", "--start-at", "2099-01-02T10:00:00+01:00", "--auto-start");
    assertThat(ok(cli, "task", "show", "1").out())
        .containsPattern("start at +2099-01-02")
        .containsPattern("auto start +when every blocker is done or cancelled");

    ok(cli, "task", "update", "1", "--clear-start-at", "--no-auto-start");
    var shown = dev.roundhouse.hub.core.Json.mapper().readTree(ok(cli, "task", "show", "1", "--json").out()).get("task");
    assertThat(shown.has("start_at")).isFalse();
    assertThat(shown.get("auto_start").asBoolean()).isFalse();

    CliResult bad = CliResult.run(cli, "task", "update", "1", "--start-at", "tomorrow");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("'tomorrow' is not a time");
  }

  @Test
  void taskShowIncludesTheEditsAnUpdateRecorded() {
    ok(cli, "task", "add", "--project", "web", "Fix the build", "--description", "CI is red.");
    ok(cli, "task", "update", "1", "--status", "todo", "--title", "Fix the CI build");

    CliResult shown = ok(cli, "task", "show", "1");

    assertThat(shown.out())
        .startsWith("task 1  Fix the CI build\n")
        .contains("project     web (1)\n", "status      todo\n", "description:\n  CI is red.\n")
        .contains("edits (newest first; undo one with: roundhouse task revert EDIT_ID):");
    assertThat(shown.out()).containsPattern("status +backlog +todo");
    assertThat(shown.out()).containsPattern("title +Fix the build +Fix the CI build");
    JsonNode json = ok(cli, "task", "show", "1", "--json").json();
    assertThat(json.path("task").path("title").asText()).isEqualTo("Fix the CI build");
    assertThat(json.path("edits")).hasSize(2);
  }

  @Test
  void taskUpdateReplacesTagsAndChangesOnlyWhatIsGiven() {
    ok(cli, "task", "add", "--project", "web", "Tidy", "--tag", "a", "--tag", "b", "--priority", "high");

    CliResult updated = ok(cli, "task", "update", "1", "--tag", "c", "--json");

    JsonNode task = updated.json();
    assertThat(task.path("tags").toString()).isEqualTo("[\"c\"]");
    assertThat(task.path("priority").asText()).isEqualTo("high");
    assertThat(ok(cli, "task", "update", "1", "--clear-tags", "--json").json().path("tags")).isEmpty();
  }

  @Test
  void taskMovePrintsTheBlockedByEdgesItDropped() {
    ok(cli, "project", "add", "api", hub.folder("api"));
    ok(cli, "task", "add", "--project", "web", "Design");
    ok(cli, "task", "add", "--project", "web", "Build", "--blocked-by", "1");

    CliResult moved = ok(cli, "task", "move", "2", "--project", "api", "--status", "todo");

    assertThat(moved.out())
        .isEqualTo(
            "moved 1 task:\n"
                + "  task 2 [todo] Build\n"
                + "dropped 1 blocked-by edge (only one end moved):\n"
                + "  task 2 is no longer blocked by task 1\n");
    JsonNode task = ok(cli, "task", "show", "2", "--json").json().path("task");
    assertThat(task.path("project_id").asLong()).isEqualTo(2);
    assertThat(task.path("blocked_by")).isEmpty();
  }

  @Test
  void taskMoveOfSeveralTasksKeepsTheirEdges() {
    ok(cli, "task", "add", "--project", "web", "Design");
    ok(cli, "task", "add", "--project", "web", "Build", "--blocked-by", "1");

    JsonNode moved = ok(cli, "task", "move", "1", "2", "--status", "review", "--json").json();

    assertThat(moved.path("tasks")).hasSize(2);
    assertThat(moved.path("dropped_edges")).isEmpty();
  }

  @Test
  void taskRevertUndoesOneEdit() {
    ok(cli, "task", "add", "--project", "web", "Ship it");
    ok(cli, "task", "update", "1", "--status", "done");
    long edit = ok(cli, "task", "show", "1", "--json").json().path("edits").get(0).path("id").asLong();

    CliResult reverted = ok(cli, "task", "revert", Long.toString(edit));

    assertThat(reverted.out()).isEqualTo("reverted edit " + edit + "; now task 1 [backlog] Ship it\n");
  }

  @Test
  void taskDeleteRemovesTheTask() {
    ok(cli, "task", "add", "--project", "web", "Obsolete");

    assertThat(ok(cli, "task", "delete", "1").out()).isEqualTo("deleted task 1 Obsolete\n");
    CliResult gone = CliResult.run(cli, "task", "show", "1");
    assertThat(gone.exit()).isEqualTo(1);
    assertThat(gone.err()).isEqualTo("roundhouse: no task 1\n");
  }

  @Test
  void anUnknownStatusIsAUsageErrorListingTheValidOnes() {
    CliResult result = CliResult.run(cli, "task", "add", "--project", "web", "--status", "someday", "Later");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("unknown status 'someday'", "in_progress");
  }

  @Test
  void aBlockerInAnotherProjectIsRefusedByTheHub() {
    ok(cli, "project", "add", "api", hub.folder("api"));
    ok(cli, "task", "add", "--project", "api", "Elsewhere");

    CliResult result = CliResult.run(cli, "task", "add", "--project", "web", "Here", "--blocked-by", "1");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err()).startsWith("roundhouse: ").contains("1");
  }

  private static List<String> titles(CliResult result) {
    List<String> titles = new ArrayList<>();
    result.json().path("tasks").forEach(task -> titles.add(task.path("title").asText()));
    return titles;
  }
}
