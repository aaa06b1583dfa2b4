package dev.roundhouse.hub.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.testing.Waits;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delivery of a log that other processes append to, against a real store as the log: a batch of this
 * process's that does not follow the last number delivered waits while the log is read up to it, one that
 * was already read is not delivered again, a notice of others' commits reads them, and a transient event keeps
 * its place.
 */
class OrderedDeliveryTest {
  @TempDir Path dir;

  @Test
  void everyEventIsDeliveredOnceInSequenceWhateverOrderItArrivesIn() {
    List<Long> delivered = new CopyOnWriteArrayList<>();
    try (Store log = Store.sqlite(dir.resolve("log.db"), Clock.systemUTC(), 16, (events, at) -> {})) {
      append(log, 3); // history: 1..3, before the delivery starts
      try (OrderedDelivery delivery = new OrderedDelivery(log, (events, at) -> events.forEach(e -> delivered.add(e.seq())))) {
        List<Event> othersAndOurs = append(log, 2); // 4: another worker's, 5: ours
        delivery.published(List.of(othersAndOurs.get(1)), System.nanoTime());
        await(delivered, 2);
        assertThat(delivered).containsExactly(4L, 5L);

        delivery.published(List.of(othersAndOurs.get(1)), System.nanoTime()); // already read from the log
        append(log, 1); // 6: another worker's
        delivery.othersCommitted();
        await(delivered, 3);
        delivery.published(List.of(transientEvent()), System.nanoTime());
        List<Event> ours = append(log, 1); // 7: ours, right after the last delivered
        delivery.published(ours, System.nanoTime());
        await(delivered, 5);
        assertThat(delivered).containsExactly(4L, 5L, 6L, 0L, 7L);
      }
    }
  }

  private static void await(List<Long> delivered, int count) {
    Waits.until(count + " events delivered", Duration.ofSeconds(10), () -> delivered.size() >= count);
  }

  private static List<Event> append(Store log, int count) {
    List<Event> written = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      written.add(log.append(new EventDraft("test.event", Actor.USER, null, null, JsonNodeFactory.instance.objectNode().put("n", i))));
    }
    return written;
  }

  private static Event transientEvent() {
    return new Event(0, "turn.text_delta", Instant.now(), Actor.USER, null, null, JsonNodeFactory.instance.objectNode());
  }
}
