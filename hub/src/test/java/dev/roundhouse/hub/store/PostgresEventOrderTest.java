package dev.roundhouse.hub.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.testing.PostgresServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * Concurrent writers on one PostgreSQL database (as several hub processes will be): each on a connection of its
 * own, appending events in transactions of several events, while a reader follows the log the way a viewer's
 * replay does. The reader must never see a sequence number before every lower one has committed: each batch
 * it reads starts right after the last number it saw, with no hole, and in the end it has seen every event
 * once. With a plain SEQUENCE the numbers would be taken in insert order but become visible in commit order,
 * and the reader would see holes.
 */
class PostgresEventOrderTest {
  private static final int WRITERS = 3;
  private static final int TRANSACTIONS = 150;

  @Test
  void readersNeverSeeASequenceNumberBeforeTheLowerOnesCommit() throws Exception {
    PostgresServer.Database database = PostgresServer.shared().newDatabase();
    try (Connection setup = database.connect()) {
      Migrations.migrate(Jdbi.open(setup), Dialect.POSTGRESQL, Migrations.latest());
    }
    SerializedDraft draft = SerializedDraft.of(new EventDraft("test.event", Actor.USER, null, null,
        JsonNodeFactory.instance.objectNode().put("text", "x")));
    AtomicBoolean writing = new AtomicBoolean(true);
    List<String> holes = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    int expected = 0;
    try (ExecutorService threads = Executors.newFixedThreadPool(WRITERS + 1)) {
      Future<?> reader = threads.submit(() -> {
        try (Connection c = database.connect();
            PreparedStatement next = c.prepareStatement("SELECT seq FROM events WHERE seq > ? ORDER BY seq")) {
          long last = 0;
          while (true) {
            boolean more = writing.get(); // read before the query: a last pass after the writers stopped
            next.setLong(1, last);
            try (ResultSet rows = next.executeQuery()) {
              while (rows.next()) {
                long seq = rows.getLong(1);
                if (seq != last + 1) {
                  holes.add("saw " + seq + " right after " + last);
                }
                seen.add(seq);
                last = seq;
              }
            }
            if (!more) {
              return null;
            }
          }
        }
      });
      List<Future<Integer>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(threads.submit(() -> {
          int appended = 0;
          try (Connection c = database.connect()) {
            c.setAutoCommit(false);
            EventInserter inserter = new EventInserter(c, Dialect.POSTGRESQL);
            for (int t = 0; t < TRANSACTIONS; t++) {
              int events = 1 + (t + writer) % 4;
              for (int e = 0; e < events; e++) {
                inserter.insert(draft, Instant.now());
              }
              if ((t + writer) % 7 == 0) {
                c.rollback(); // its numbers go back: the next transaction takes them
              } else {
                c.commit();
                appended += events;
              }
            }
            inserter.close();
          }
          return appended;
        }));
      }
      for (Future<Integer> w : writers) {
        expected += w.get();
      }
      writing.set(false);
      reader.get();
    }
    assertThat(holes).as("a reader saw a number before a lower one had committed").isEmpty();
    assertThat(seen).hasSize(expected);
    long highest = expected;
    assertThat(seen).allSatisfy(seq -> assertThat(seq).isBetween(1L, highest));
  }
}
