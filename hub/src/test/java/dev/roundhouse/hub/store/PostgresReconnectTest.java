package dev.roundhouse.hub.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.events.EventStream;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.testing.PostgresServer;
import dev.roundhouse.hub.testing.Waits;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A PostgreSQL server that restarts under a running store: the store reconnects and loses nothing committed. */
class PostgresReconnectTest {
  private final PostgresServer server = PostgresServer.startPrivate();
  private final List<Event> published = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void afterTheServerRestartsWritesAndReadsGoOnAndWhatWasCommittedIsKept() {
    PostgresServer.Database database = server.newDatabase();
    try (Store store = Store.postgres(database.databaseUrl(), Clock.systemUTC(), 64, (events, at) -> published.addAll(events))) {
      Instant now = Instant.parse("2026-12-02T10:00:00Z");
      store.write(w -> w.insertProject(new Project(0, "before", "/src/before", null, null, now, now)));
      store.append(new EventDraft("test.event", Actor.USER, null, null, dev.roundhouse.hub.core.Json.tree(java.util.Map.of("n", 1))));

      server.restart();

      // The first write after the restart may find the old connection gone (and say so); one soon after goes through.
      AtomicReference<RuntimeException> lastFailure = new AtomicReference<>();
      Waits.until("a write after the restart to go through", Duration.ofSeconds(30), () -> {
        try {
          store.write(w -> w.insertProject(new Project(0, "after", "/src/after", null, null, now, now)));
          return true;
        } catch (RoundhouseException e) {
          assertThat(e.code()).isEqualTo("store_unavailable");
          assertThat(e.getMessage()).contains("PostgreSQL database").doesNotContain(database.server().password());
          lastFailure.set(e);
          return false;
        }
      });
      assertThat(lastFailure.get()).as("the first write after the restart found the connection gone").isNotNull();
      List<String> names = store.read(StoreReader::projects).stream().map(Project::name).toList();
      assertThat(names).containsExactly("after", "before");
      Event next = store.append(new EventDraft("test.event", Actor.USER, null, null, dev.roundhouse.hub.core.Json.tree(java.util.Map.of("n", 2))));
      assertThat(next.seq()).isEqualTo(2);
      assertThat(store.eventsAfter(0, 10)).extracting(Event::seq).containsExactly(1L, 2L);
      assertThat(published).extracting(Event::seq).containsExactly(1L, 2L);
    }
  }

  /**
   * Two workers' stores, and the first one's bus: after the server restarts, the first worker's listener
   * connects again, and events the second worker commits then still reach the first worker's bus, in order,
   * after the ones from before the restart.
   */
  @Test
  void afterTheServerRestartsAnotherWorkersEventsStillReachThisWorkersBus() throws Exception {
    PostgresServer.Database database = server.newDatabase();
    EventBus bus = new EventBus();
    try (Store first = Store.postgres(database.databaseUrl(), Clock.systemUTC(), 64, bus);
        Store second = Store.postgres(database.databaseUrl(), Clock.systemUTC(), 64, (events, at) -> {})) {
      bus.attach(first);
      try (EventStream live = bus.open(0, 100)) {
        second.append(new EventDraft("test.event", Actor.USER, null, null, dev.roundhouse.hub.core.Json.tree(java.util.Map.of("n", 1))));
        assertThat(live.next(Duration.ofSeconds(30))).map(Event::seq).contains(1L);

        server.restart();

        Waits.until("the second worker to write after the restart", Duration.ofSeconds(30), () -> {
          try {
            second.append(new EventDraft("test.event", Actor.USER, null, null, dev.roundhouse.hub.core.Json.tree(java.util.Map.of("n", 2))));
            return true;
          } catch (RoundhouseException e) {
            return false; // store_unavailable until its session is open again
          }
        });
        assertThat(live.next(Duration.ofSeconds(30))).as("the event written after the restart, on the first worker's bus")
            .map(Event::seq).contains(2L);
      }
    } finally {
      bus.close();
    }
  }
}
