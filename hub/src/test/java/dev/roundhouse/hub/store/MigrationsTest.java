package dev.roundhouse.hub.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Tag;
import dev.roundhouse.hub.model.TaskEdit;
import java.nio.file.Path;
import java.util.List;
import java.time.Clock;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationsTest {
  @TempDir Path dir;

  private Handle open(Path file) {
    return Jdbi.create("jdbc:sqlite:" + file).open();
  }

  @Test
  void emptyDatabaseMigratesToLatest() {
    try (Store store = Store.sqlite(dir.resolve("a.db"), Clock.systemUTC(), 16, (e, t) -> {})) {
      assertThat(store.schemaVersion()).isEqualTo(Migrations.latest()).isEqualTo(7);
      assertThat(store.read(StoreReader::projects)).isEmpty();
    }
  }

  @Test
  void eachVersionMigratesFromThePreviousKeepingData() {
    Path file = dir.resolve("b.db");
    try (Handle handle = open(file)) {
      assertThat(Migrations.migrate(handle, 1)).isEqualTo(1);
      handle.execute(
          "INSERT INTO projects (id, name, path, created_at, updated_at) VALUES (1, 'web', '/tmp', 1, 1)");
      handle.execute(
          "INSERT INTO tasks (id, project_id, title, status, priority, created_by, created_at, updated_at)"
              + " VALUES (7, 1, 'Old task', 'todo', 'high', 'user', 5, 5)");
      handle.execute("INSERT INTO task_tags (task_id, tag) VALUES (7, 'ui')");
      handle.execute("INSERT INTO events (type, at, actor, data) VALUES ('task.created', 5, 'user', '{}')");
    }
    try (Handle handle = open(file)) {
      assertThat(Migrations.migrate(handle, 2)).isEqualTo(2);
      // V2 back-filled the tags table from the tags in use.
      assertThat(handle.createQuery("SELECT name FROM tags").mapTo(String.class).list()).containsExactly("ui");
      handle.execute("UPDATE tags SET color = '#112233' WHERE name = 'ui'");
    }
    try (Store store = Store.sqlite(file, Clock.systemUTC(), 16, (e, t) -> {})) {
      assertThat(store.schemaVersion()).isEqualTo(7);
      var task = store.read(r -> r.task(7)).orElseThrow();
      assertThat(task.title()).isEqualTo("Old task");
      assertThat(task.status()).isEqualTo(TaskStatus.TODO);
      assertThat(task.tags()).containsExactly("ui");
      // V2 back-filled the tags table from the tags in use.
      List<Tag> tags = store.read(r -> r.tags(null));
      assertThat(tags).extracting(t -> t.name() + "=" + t.tasks() + " " + t.color()).containsExactly("ui=1 #112233");
      // V3: every existing task starts in generation 1 with no turns, queue or decisions.
      int generation = store.read(r -> r.runner().generation(7));
      assertThat(generation).isEqualTo(1);
      List<?> turns = store.read(r -> r.runner().turns(7, 10));
      assertThat(turns).isEmpty();
      // V4: no extension records yet.
      List<?> records = store.read(r -> r.extensions().records("workspace", "", 10));
      assertThat(records).isEmpty();
      List<TaskEdit> edits = store.read(r -> r.edits(7, 10));
      assertThat(edits).isEmpty();
      assertThat(store.lastSeq()).isEqualTo(1);
    }
    try (Handle handle = open(file)) {
      // V5: existing tasks do not start on their own; no runbooks, schedules or runs yet.
      assertThat(handle.createQuery("SELECT auto_start FROM tasks WHERE id = 7").mapTo(Integer.class).one()).isZero();
      assertThat(handle.createQuery("SELECT count(*) FROM schedule_runs").mapTo(Integer.class).one()).isZero();
      // V6: no worker registered by a store alone (the hub registers itself).
      assertThat(handle.createQuery("SELECT count(*) FROM workers").mapTo(Integer.class).one()).isZero();
      // V7: turns from before leases belong to no worker.
      handle.execute("INSERT INTO turns (task_id, generation, driver, status, unattended, started_by, started_at)"
          + " VALUES (7, 1, 'script', 'running', 0, 'user', 6)");
      assertThat(handle.createQuery("SELECT worker_id IS NULL AND lease_expires_at IS NULL FROM turns").mapTo(Boolean.class).one())
          .isTrue();
    }
  }

  @Test
  void reopeningAMigratedDatabaseChangesNothing() {
    Path file = dir.resolve("c.db");
    try (Store store = Store.sqlite(file, Clock.systemUTC(), 16, (e, t) -> {})) {
      assertThat(store.schemaVersion()).isEqualTo(7);
    }
    try (Store store = Store.sqlite(file, Clock.systemUTC(), 16, (e, t) -> {})) {
      assertThat(store.schemaVersion()).isEqualTo(7);
    }
  }

  @Test
  void aDatabaseFromANewerRoundhouseIsRefusedAndLeftAlone() {
    Path file = dir.resolve("d.db");
    try (Handle handle = open(file)) {
      handle.execute("PRAGMA user_version = 99");
    }
    assertThatThrownBy(() -> Store.sqlite(file, Clock.systemUTC(), 16, (e, t) -> {}))
        .isInstanceOf(RoundhouseException.class)
        .hasMessageContaining("schema version 99")
        .hasMessageContaining("knows versions up to 7");
    try (Handle handle = open(file)) {
      assertThat(Migrations.version(handle)).isEqualTo(99);
    }
  }

  @Test
  void theStoreRunsInWalModeWithFullSync() {
    Path file = dir.resolve("e.db");
    try (Store store = Store.sqlite(file, Clock.systemUTC(), 16, (e, t) -> {})) {
      String mode = store.read(r -> ((SqlReader) r).handle.createQuery("PRAGMA journal_mode").mapTo(String.class).one());
      int sync = store.read(r -> ((SqlReader) r).handle.createQuery("PRAGMA synchronous").mapTo(Integer.class).one());
      assertThat(mode).isEqualToIgnoringCase("wal");
      assertThat(sync).isEqualTo(2);
    }
  }
}
