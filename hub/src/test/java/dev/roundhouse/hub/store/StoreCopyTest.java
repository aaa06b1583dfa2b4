package dev.roundhouse.hub.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.MissedPolicy;
import dev.roundhouse.hub.model.OverlapPolicy;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.PostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A home's SQLite database copied into PostgreSQL: the same answers from both, and numbering that continues. */
class StoreCopyTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(T0);
  private final PostgresServer.Database target = PostgresServer.shared().newDatabase();

  private Path filledSqlite() {
    Path file = dir.resolve("roundhouse.db");
    try (Store store = Store.sqlite(file, clock, 16, (e, t) -> {})) {
      store.write(w -> {
        Project web = w.insertProject(new Project(0, "web", "/src/web", "claude", "be brief", w.now(), w.now()));
        Task blocker = w.insertTask(new Task(0, web.id(), "blocker", null, TaskStatus.DONE, Priority.LOW, List.of(), List.of(),
            false, null, null, null, false, Actor.USER, w.now(), w.now()));
        Task task = w.insertTask(new Task(0, web.id(), "Fix login", "the form", TaskStatus.TODO, Priority.HIGH, List.of("ui", "bug"),
            List.of(blocker.id()), false, "codex", "fix-login", T0.plusSeconds(3600), true, Actor.USER, w.now(), w.now()));
        w.upsertTag("ui", "#112233", "interface");
        w.recordEdit(task.id(), Actor.USER, "title", JsonNodeFactory.instance.textNode("a"), JsonNodeFactory.instance.textNode("b"), w.now());
        Turn turn = w.runner().insertTurn(task.id(), 1, "claude", false, Actor.USER, w.now());
        w.runner().enqueue(task.id(), "next", null, Actor.USER, w.now());
        w.runner().insertDecision("permission", web.id(), task.id(), turn.id(), "Run npm test?",
            JsonNodeFactory.instance.objectNode().put("tool", "Bash"), List.of("allow", "deny"), w.now());
        w.runner().insertRule(web.id(), "Bash", "npm test", Actor.USER, w.now());
        w.runner().putSettingsHash(web.id(), "claude", ".claude/settings.json", "aa", w.now());
        w.extensions().putRecord("workspace", "task/" + task.id(), JsonNodeFactory.instance.objectNode().put("path", "/w"), w.now());
        Runbook runbook = w.schedules().insertRunbook(new Runbook(0, web.id(), "Nightly", "triage", null, null, null, Priority.NORMAL,
            List.of("ops"), true, Actor.USER, w.now(), w.now()));
        w.schedules().insertSchedule(new Schedule(0, web.id(), "Every night", runbook.id(), null, "FREQ=DAILY", "UTC",
            MissedPolicy.SKIP, OverlapPolicy.SKIP, false, T0.plusSeconds(60), Actor.USER, w.now(), w.now()));
        return null;
      });
      for (int i = 1; i <= 5; i++) {
        store.append(new EventDraft("test.event", Actor.USER, null, null, JsonNodeFactory.instance.objectNode().put("n", i)));
      }
    }
    // the newest event deleted (as pruning does): its number is never given out again, on either backend
    try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file)) {
      c.createStatement().execute("DELETE FROM events WHERE seq = 5");
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
    return file;
  }

  /** What a hub reads: the same from the SQLite file and from its PostgreSQL copy. */
  private static final List<Function<StoreReader, Object>> READS = List.of(
      StoreReader::projects,
      r -> r.tasks(TaskQuery.inProject(1)),
      r -> r.tags(null),
      r -> r.edits(2, 10),
      r -> r.runner().turns(2, 10),
      r -> r.runner().queue(2),
      r -> r.runner().decisions(false, null, null, 10),
      r -> r.runner().rules(1),
      r -> r.runner().settingsHashes(1, "claude"),
      r -> r.extensions().records("workspace", "", 10),
      r -> r.schedules().runbooks(null),
      r -> r.schedules().schedules(null));

  @Test
  void everyRowIsCopiedAndReadsTheSameAndNumberingContinues() {
    Path sqlite = filledSqlite();
    List<Object> before = new ArrayList<>();
    List<Event> eventsBefore;
    try (Store store = Store.sqlite(sqlite, clock, 16, (e, t) -> {})) {
      READS.forEach(read -> before.add(store.read(read)));
      eventsBefore = store.eventsAfter(0, 100);
    }

    Map<String, Long> copied = Store.copySqliteToPostgres(sqlite, target.databaseUrl());
    assertThat(copied).containsEntry("projects", 1L).containsEntry("tasks", 2L).containsEntry("task_tags", 2L)
        .containsEntry("events", 4L).containsEntry("schedules", 1L);

    try (Store copy = Store.postgres(target.databaseUrl(), clock, 16, (e, t) -> {})) {
      List<Object> after = new ArrayList<>();
      READS.forEach(read -> after.add(copy.read(read)));
      assertThat(after).isEqualTo(before);
      assertThat(copy.eventsAfter(0, 100)).isEqualTo(eventsBefore);
      Project next = copy.write(w -> w.insertProject(new Project(0, "api", "/src/api", null, null, w.now(), w.now())));
      assertThat(next.id()).isEqualTo(2);
      assertThat(copy.append(new EventDraft("test.event", Actor.USER, null, null, JsonNodeFactory.instance.objectNode())).seq())
          .as("the pruned number 5 is not given out again").isEqualTo(6);
    }
  }

  @Test
  void aTargetThatAlreadyHoldsDataIsRefusedAndLeftAlone() {
    Path sqlite = filledSqlite();
    try (Store existing = Store.postgres(target.databaseUrl(), clock, 16, (e, t) -> {})) {
      existing.write(w -> w.insertProject(new Project(0, "mine", "/src/mine", null, null, w.now(), w.now())));
    }
    assertThatThrownBy(() -> Store.copySqliteToPostgres(sqlite, target.databaseUrl()))
        .hasMessageContaining("already holds projects or events");
    try (Store existing = Store.postgres(target.databaseUrl(), clock, 16, (e, t) -> {})) {
      List<Project> projects = existing.read(StoreReader::projects);
      assertThat(projects).extracting(Project::name).containsExactly("mine");
    }
  }

  @Test
  void everyTableOfTheSchemaIsCopiedButTheRegistry() throws Exception {
    try (Store store = Store.postgres(target.databaseUrl(), clock, 16, (e, t) -> {});
        Connection c = target.connect();
        ResultSet tables = c.getMetaData().getTables(null, "public", "%", new String[] {"TABLE"})) {
      TreeSet<String> names = new TreeSet<>();
      while (tables.next()) {
        names.add(tables.getString("TABLE_NAME"));
      }
      names.removeAll(List.of("workers", "roundhouse_schema", "event_counter"));
      assertThat(names).as("a table a migration added must be copied too (StoreCopy.TABLES)")
          .containsExactlyInAnyOrderElementsOf(StoreCopy.TABLES);
    }
  }
}
