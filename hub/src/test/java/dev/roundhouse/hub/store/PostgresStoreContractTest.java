package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.DatabaseUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.events.EventSink;
import dev.roundhouse.hub.events.EventStream;
import java.time.Duration;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.PostgresServer;
import dev.roundhouse.hub.events.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The store contract on PostgreSQL: a real server ({@link PostgresServer}), a new database per test. */
class PostgresStoreContractTest extends StoreContract {
  private PostgresServer.Database database;

  @Override
  Store openNew(ManualClock clock, EventSink sink) {
    database = PostgresServer.shared().newDatabase();
    return reopen(clock, sink);
  }

  @Override
  Store reopen(ManualClock clock, EventSink sink) {
    return Store.postgres(database.databaseUrl(), clock, 64, sink);
  }

  @Override
  String backend() {
    return "postgresql";
  }

  @Test
  void aSecondWorkersEventsReachTheFirstWorkersBusInSequenceWithItsOwn() throws Exception {
    EventBus bus = new EventBus();
    try (Store first = reopen(clock, bus); Store second = reopen(clock, sink)) {
      bus.attach(first);
      assertThat(first.sharedWithOtherWriters()).isTrue();
      try (EventStream live = bus.open(first.lastSeq(), 100)) {
        List<Long> written = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          written.add((i % 3 == 1 ? second : first).append(draft("test.event", null, i)).seq());
        }
        List<Long> seen = new ArrayList<>();
        while (seen.size() < written.size()) {
          Event next = live.next(Duration.ofSeconds(30)).orElseThrow(() -> new AssertionError("no event within 30 s after " + seen));
          seen.add(next.seq());
        }
        assertThat(seen).containsExactlyElementsOf(written).isSorted();
      }
    } finally {
      bus.close();
    }
  }

  @Test
  void aStoreCopyIsRefusedWhileAWorkerUsesTheDatabaseNamingIt() {
    assertThatThrownBy(() -> PostgresConnections.lockDatabase(database.databaseUrl()))
        .isInstanceOf(RoundhouseException.HomeLocked.class)
        .hasMessageContaining("the database " + database.urlWithoutPassword() + " is in use")
        .hasMessageContaining("roundhouse hub pid " + ProcessHandle.current().pid())
        .hasMessageContaining("stop every hub using it first")
        .hasMessageNotContaining(database.server().password());
    assertThat(store.read(StoreReader::projects)).isEmpty();
  }

  @Test
  void anEventInsertThatFailsUndoesItsGroupAndNothingUnstoredIsPublished() throws Exception {
    List<Future<Event>> appends = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      for (int i = 0; i < 60; i++) {
        String type = i == 30 ? "bad\u0000type" : "test.event";
        int n = i;
        appends.add(pool.submit(() -> store.append(draft(type, null, n))));
      }
    }
    int stored = 0;
    for (int i = 0; i < appends.size(); i++) {
      try {
        appends.get(i).get();
        stored++;
      } catch (ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(RoundhouseException.class);
        if (i == 30) {
          assertThat(e.getCause()).hasMessageContaining("NUL character");
        } else {
          assertThat(e.getCause()).hasMessageContaining("not written: another write committed with it failed");
        }
      }
    }
    assertThat(stored).isLessThan(60);
    List<Event> inStore = store.eventsAfter(0, 100);
    assertThat(inStore).hasSize(stored);
    assertThat(published).as("every published event is stored, in order, gap-free")
        .extracting(Event::seq).containsExactlyElementsOf(inStore.stream().map(Event::seq).toList());
    assertThat(store.append(draft("test.event", null, 99)).seq()).isEqualTo(stored + 1);
  }

  @Test
  void aWrongPasswordIsNamedWithoutShowingIt() {
    var wrong = new DatabaseUrl(database.databaseUrl().jdbcUrl(), PostgresServer.USER, "wrong-password");
    assertThatThrownBy(() -> Store.postgres(wrong, clock, 64, sink))
        .hasMessageContaining("cannot open the PostgreSQL database")
        .hasMessageContaining("password authentication failed")
        .hasMessageNotContaining("wrong-password");
  }
}
