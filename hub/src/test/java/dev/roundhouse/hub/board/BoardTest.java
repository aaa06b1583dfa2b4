package dev.roundhouse.hub.board;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BoardTest {
  @TempDir Path home;
  private Hub hub;
  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-30T10:00:00Z"));
  private String repo;

  /** A clock the test moves by hand, so "most recently updated" is decided by the test. */
  private final Clock clock = new Clock() {
    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }
  };

  @BeforeEach
  void open() throws Exception {
    hub = Hub.open(HubConfig.forHome(home).withClock(clock));
    repo = Files.createDirectories(home.resolve("web")).toString();
    op("project_create", map("name", "web", "path", repo));
  }

  @AfterEach
  void close() {
    hub.close();
  }

  private JsonNode op(String name, Object input) {
    return op(Actor.USER, name, input);
  }

  private JsonNode op(Actor actor, String name, Object input) {
    return hub.operations().invoke(name, actor, Json.tree(input));
  }

  private long task(String title, Object... more) {
    var input = map("project", "web", "title", title);
    for (int i = 0; i < more.length; i += 2) {
      input.put((String) more[i], more[i + 1]);
    }
    tick();
    return op("task_create", input).get("id").asLong();
  }

  private void tick() {
    now.updateAndGet(t -> t.plus(Duration.ofSeconds(1)));
  }

  private List<String> boardTitles() {
    List<String> titles = new ArrayList<>();
    op("task_list", map("project", "web")).get("tasks").forEach(t -> titles.add(t.get("title").asText()));
    return titles;
  }

  @Test
  void boardOrderIsSuggestedFirstThenMostRecentlyUpdatedThenNewest() {
    long a = task("a");
    task("b");
    task("c", "suggested", true);
    task("d");
    tick();
    op("task_update", map("task", a, "priority", "high"));
    assertThat(boardTitles()).containsExactly("c", "a", "d", "b");
  }

  @Test
  void sameUpdateTimeFallsBackToNewestCreatedThenNewestId() {
    // The clock does not move: every task shares one timestamp, so the newest id comes first.
    op("task_create", map("project", "web", "title", "x"));
    op("task_create", map("project", "web", "title", "y"));
    op("task_create", map("project", "web", "title", "z"));
    assertThat(boardTitles()).containsExactly("z", "y", "x");
  }

  @Test
  void projectBoardGroupsColumnsInStatusOrder() {
    task("doing", "status", "in_progress");
    task("later");
    JsonNode board = op("project_board", map("project", "WEB"));
    assertThat(board.get("project").get("name").asText()).isEqualTo("web");
    List<String> columns = new ArrayList<>();
    board.get("columns").forEach(c -> columns.add(c.get("status").asText() + ":" + c.get("tasks").size()));
    assertThat(columns).containsExactly("backlog:1", "todo:0", "in_progress:1", "review:0", "done:0", "cancelled:0");
  }

  @Test
  void aCycleInBlockedByIsRefusedNamingItAndNothingChanges() {
    long a = task("a");
    long b = task("b", "blocked_by", List.of(a));
    long c = task("c", "blocked_by", List.of(b));
    assertThatThrownBy(() -> op("task_update", map("task", a, "blocked_by", List.of(c))))
        .isInstanceOf(RoundhouseException.Conflict.class)
        .hasMessage("blocked_by would form a cycle: #" + a + " waits on #" + c + " waits on #" + b + " waits on #" + a);
    assertThat(op("task_get", map("task", a)).get("blocked_by")).isEmpty();
    assertThatThrownBy(() -> op("task_update", map("task", a, "blocked_by", List.of(a))))
        .hasMessageContaining("cannot be blocked by itself");
    assertThatThrownBy(() -> task("d", "blocked_by", List.of(999)))
        .isInstanceOf(RoundhouseException.NotFound.class)
        .hasMessageContaining("task 999");
    assertThat(boardTitles()).doesNotContain("d");
  }

  @Test
  void anAgentFilesSuggestionsAndCannotAcceptThem() {
    long own = task("own");
    JsonNode suggestion = op(Actor.agent(own), "task_create", map("project", "web", "title", "idea", "suggested", false));
    assertThat(suggestion.get("suggested").asBoolean()).isTrue();
    assertThat(suggestion.get("created_by").asText()).isEqualTo("agent:" + own);
    assertThatThrownBy(() -> op(Actor.agent(own), "task_update", map("task", suggestion.get("id").asLong(), "suggested", false)))
        .isInstanceOf(RoundhouseException.Forbidden.class)
        .hasMessageContaining("only the user accepts");
    JsonNode accepted = op("task_update", map("task", suggestion.get("id").asLong(), "suggested", false));
    assertThat(accepted.get("suggested").asBoolean()).isFalse();
  }

  @Test
  void anAgentsEditToAnotherTaskIsRecordedFieldByFieldAndCanBeReverted() {
    long own = task("own");
    long other = task("other", "description", "keep me", "tags", List.of("ui"));
    tick();
    op(Actor.agent(own), "task_update", map("task", other, "title", "renamed", "tags", List.of("ui", "backend")));
    JsonNode edits = op("task_edits", map("task", other)).get("edits");
    assertThat(edits).hasSize(2);
    JsonNode titleEdit = null;
    for (JsonNode edit : edits) {
      assertThat(edit.get("actor").asText()).isEqualTo("agent:" + own);
      if (edit.get("field").asText().equals("title")) {
        titleEdit = edit;
      }
    }
    assertThat(titleEdit).isNotNull();
    assertThat(titleEdit.get("before").asText()).isEqualTo("other");
    assertThat(titleEdit.get("after").asText()).isEqualTo("renamed");

    JsonNode reverted = op("task_revert_edit", map("edit", titleEdit.get("id").asLong()));
    assertThat(reverted.get("title").asText()).isEqualTo("other");
    assertThat(reverted.get("tags")).extracting(JsonNode::asText).containsExactly("backend", "ui");
    long editId = titleEdit.get("id").asLong();
    assertThatThrownBy(() -> op("task_revert_edit", map("edit", editId)))
        .isInstanceOf(RoundhouseException.Conflict.class)
        .hasMessageContaining("already reverted");
  }

  @Test
  void revertingAnEditThatWasOverwrittenIsRefused() {
    long t = task("t");
    op("task_update", map("task", t, "status", "todo"));
    long edit = op("task_edits", map("task", t)).get("edits").get(0).get("id").asLong();
    op("task_update", map("task", t, "status", "done"));
    assertThatThrownBy(() -> op("task_revert_edit", map("edit", edit)))
        .isInstanceOf(RoundhouseException.Conflict.class)
        .hasMessageContaining("status changed after edit " + edit)
        .hasMessageContaining("\"done\"");
    assertThat(op("task_get", map("task", t)).get("status").asText()).isEqualTo("done");
  }

  @Test
  void movingTasksToAnotherProjectKeepsEdgesOnlyWhenBothEndsMove() throws Exception {
    op("project_create", map("name", "api", "path", Files.createDirectories(home.resolve("api")).toString()));
    long a = task("a");
    long b = task("b", "blocked_by", List.of(a));
    long c = task("c", "blocked_by", List.of(b));
    long d = task("d", "blocked_by", List.of(a));
    JsonNode moved = op("task_move", map("tasks", List.of(a, b), "project", "api", "status", "todo"));
    List<String> dropped = new ArrayList<>();
    moved.get("dropped_edges").forEach(e -> dropped.add(e.get("task").asLong() + "<-" + e.get("blocked_by").asLong()));
    assertThat(dropped).containsExactlyInAnyOrder(c + "<-" + b, d + "<-" + a);
    assertThat(op("task_get", map("task", b)).get("blocked_by")).extracting(JsonNode::asLong).containsExactly(a);
    assertThat(op("task_get", map("task", c)).get("blocked_by")).isEmpty();
    assertThat(op("task_get", map("task", a)).get("status").asText()).isEqualTo("todo");
    assertThat(op("task_list", map("project", "api")).get("tasks")).hasSize(2);
  }

  @Test
  void deletingATaskUnblocksItsWaiters() {
    long a = task("a");
    long b = task("b", "blocked_by", List.of(a));
    assertThat(op("task_delete", map("task", a)).get("title").asText()).isEqualTo("a");
    assertThat(op("task_get", map("task", b)).get("blocked_by")).isEmpty();
    assertThatThrownBy(() -> op("task_get", map("task", a)))
        .isInstanceOf(RoundhouseException.NotFound.class)
        .hasMessage("no task " + a);
  }

  @Test
  void unknownProjectsAreNamedWithTheKnownOnes() {
    assertThatThrownBy(() -> op("task_create", map("project", "nope", "title", "x")))
        .isInstanceOf(RoundhouseException.NotFound.class)
        .hasMessage("no project 'nope'; known projects: web (1)");
  }

  @Test
  void projectNamesAreUniqueIgnoringCaseAndPathsMustExist() {
    assertThatThrownBy(() -> op("project_create", map("name", "WEB", "path", repo)))
        .isInstanceOf(RoundhouseException.Conflict.class)
        .hasMessageContaining("already exists");
    assertThatThrownBy(() -> op("project_create", map("name", "x", "path", "relative/path")))
        .hasMessageContaining("must be absolute");
    assertThatThrownBy(() -> op("project_create", map("name", "x", "path", home.resolve("missing").toString())))
        .hasMessageContaining("not an existing folder");
    assertThatThrownBy(() -> op("project_create", map("name", "42", "path", repo)))
        .hasMessageContaining("must not be all digits");
  }

  @Test
  void tagsAreNormalisedCountedAndRenamedEverywhere() {
    task("a", "tags", List.of("UI", " backend "));
    task("b", "tags", List.of("ui"));
    List<String> tags = new ArrayList<>();
    op("tag_list", map()).get("tags").forEach(t -> tags.add(t.get("name").asText() + "=" + t.get("tasks").asInt()));
    assertThat(tags).containsExactly("backend=1", "ui=2");
    JsonNode renamed = op("tag_update", map("name", "ui", "new_name", "frontend", "color", "#AABBCC"));
    assertThat(renamed.get("name").asText()).isEqualTo("frontend");
    assertThat(renamed.get("color").asText()).isEqualTo("#aabbcc");
    assertThat(renamed.get("tasks").asInt()).isEqualTo(2);
    assertThat(op("task_list", map("tag", "frontend")).get("tasks")).hasSize(2);
    assertThatThrownBy(() -> op("tag_update", map("name", "nope", "color", "#000000")))
        .hasMessageContaining("no tag 'nope'");
    assertThatThrownBy(() -> op("tag_update", map("name", "backend", "color", "red")))
        .hasMessageContaining("must look like '#d73a4a'");
  }

  @Test
  void taskListFiltersByStatusTagAndTextAndPages() {
    task("Fix login bug", "tags", List.of("auth"), "status", "todo");
    task("Write docs", "description", "explain LOGIN flow");
    task("Refactor", "status", "done");
    assertThat(op("task_list", map("text", "login")).get("tasks")).hasSize(2);
    assertThat(op("task_list", map("status", List.of("todo", "done"))).get("tasks")).hasSize(2);
    assertThat(op("task_list", map("tag", "auth")).get("tasks")).hasSize(1);
    JsonNode page = op("task_list", map("limit", 2));
    assertThat(page.get("tasks")).hasSize(2);
    assertThat(page.get("has_more").asBoolean()).isTrue();
    assertThat(op("task_list", map("limit", 2, "offset", 2)).get("has_more").asBoolean()).isFalse();
    assertThat(op("task_list", map("text", "100%")).get("tasks")).isEmpty();
  }

  @Test
  void everyWriteRecordsItsActorInItsEvent() throws Exception {
    long t = task("t");
    op(Actor.client("cursor"), "task_update", map("task", t, "title", "u"));
    var events = hub.events().open(0, 100);
    List<String> seen = new ArrayList<>();
    for (var e = events.next(Duration.ofSeconds(1)); e.isPresent(); e = events.next(Duration.ofMillis(10))) {
      seen.add(e.get().type() + " by " + e.get().actor());
    }
    events.close();
    assertThat(seen).containsExactly("project.created by user", "task.created by user", "task.updated by client:cursor");
  }
}
