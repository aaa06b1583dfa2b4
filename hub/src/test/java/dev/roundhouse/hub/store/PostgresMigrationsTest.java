package dev.roundhouse.hub.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.testing.PostgresServer;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/** The PostgreSQL migrations, as {@link MigrationsTest} checks SQLite's: each from the one before, data kept. */
class PostgresMigrationsTest {
  private final PostgresServer.Database database = PostgresServer.shared().newDatabase();

  private Handle open() throws SQLException {
    return Jdbi.open(database.connect());
  }

  private Store store() {
    return Store.postgres(database.databaseUrl(), Clock.systemUTC(), 16, (e, t) -> {});
  }

  @Test
  void eachVersionMigratesFromThePreviousKeepingData() throws Exception {
    try (Handle handle = open()) {
      assertThat(Migrations.migrate(handle, Dialect.POSTGRESQL, 1)).isEqualTo(1);
      handle.execute("INSERT INTO projects (id, name, path, created_at, updated_at) VALUES (1, 'web', '/tmp', 1, 1)");
      handle.execute("INSERT INTO tasks (id, project_id, title, status, priority, created_by, created_at, updated_at)"
          + " VALUES (7, 1, 'Old task', 'todo', 'high', 'user', 5, 5)");
      handle.execute("INSERT INTO task_tags (task_id, tag) VALUES (7, 'ui')");
      handle.execute("UPDATE event_counter SET last = 1");
      handle.execute("INSERT INTO events (seq, type, at, actor, data) VALUES (1, 'task.created', 5, 'user', '{}')");
    }
    for (int version = 2; version <= Migrations.latest(); version++) {
      try (Handle handle = open()) {
        assertThat(Migrations.migrate(handle, Dialect.POSTGRESQL, version)).isEqualTo(version);
        if (version == 2) {
          // V2 back-filled the tags table from the tags in use.
          assertThat(handle.createQuery("SELECT name FROM tags").mapTo(String.class).list()).containsExactly("ui");
          handle.execute("UPDATE tags SET color = '#112233' WHERE name = 'ui'");
        }
      }
    }
    try (Store store = store()) {
      assertThat(store.schemaVersion()).isEqualTo(Migrations.latest());
      var task = store.read(r -> r.task(7)).orElseThrow();
      assertThat(task.title()).isEqualTo("Old task");
      assertThat(task.status()).isEqualTo(TaskStatus.TODO);
      assertThat(task.tags()).containsExactly("ui");
      List<dev.roundhouse.hub.model.Tag> tags = store.read(r -> r.tags(null));
      assertThat(tags).extracting(t -> t.name() + "=" + t.tasks() + " " + t.color())
          .containsExactly("ui=1 #112233");
      int generation = store.read(r -> r.runner().generation(7));
      assertThat(generation).isEqualTo(1);
      List<?> records = store.read(r -> r.extensions().records("workspace", "", 10));
      assertThat(records).isEmpty();
      List<?> runbooks = store.read(r -> r.schedules().runbooks(null));
      assertThat(runbooks).isEmpty();
      assertThat(store.lastSeq()).isEqualTo(1);
    }
  }

  @Test
  void aDatabaseFromANewerRoundhouseIsRefusedAndLeftAlone() throws Exception {
    try (Handle handle = open()) {
      handle.execute("CREATE TABLE roundhouse_schema (version INTEGER NOT NULL)");
      handle.execute("INSERT INTO roundhouse_schema (version) VALUES (99)");
    }
    assertThatThrownBy(this::store)
        .isInstanceOf(RoundhouseException.class)
        .hasMessageContaining("schema version 99")
        .hasMessageContaining("knows versions up to " + Migrations.latest());
    try (Handle handle = open()) {
      assertThat(Migrations.version(handle, Dialect.POSTGRESQL)).isEqualTo(99);
    }
  }

  @Test
  void workersMigratingOneDatabaseAtOnceMigrateItOnce() throws Exception {
    List<Future<Integer>> results = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
      for (int i = 0; i < 3; i++) {
        results.add(pool.submit(() -> {
          try (Handle handle = open()) {
            return Migrations.migrate(handle, Dialect.POSTGRESQL, Migrations.latest());
          }
        }));
      }
      for (Future<Integer> result : results) {
        assertThat(result.get()).isEqualTo(Migrations.latest());
      }
    }
    try (Handle handle = open()) {
      assertThat(handle.createQuery("SELECT count(*) FROM roundhouse_schema").mapTo(Integer.class).one()).isEqualTo(1);
      assertThat(handle.createQuery("SELECT last FROM event_counter").mapTo(Long.class).one()).isZero();
    }
  }
}
