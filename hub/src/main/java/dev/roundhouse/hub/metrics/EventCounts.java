package dev.roundhouse.hub.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.events.Event;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Counts what the event bus publishes, from the hub's start: durable events by type, transient ones (text
 * deltas), and how long each closed decision waited for its answer or expiry. Plain adders, read by the
 * registry's function meters at a scrape, so counting costs nothing beyond an increment.
 *
 * <p>Thread-safe. Runs on the publishing thread (the store's writer): it never blocks.
 */
final class EventCounts implements Consumer<List<Event>> {
  final Map<String, LongAdder> durable = new ConcurrentHashMap<>();
  final LongAdder transientEvents = new LongAdder();
  final Map<String, Waits> decisionWaits = new ConcurrentHashMap<>();

  /** Closed decisions of one outcome and the time they waited, summed. */
  static final class Waits {
    final LongAdder count = new LongAdder();
    final LongAdder nanos = new LongAdder();
  }

  @Override
  public void accept(List<Event> events) {
    for (Event event : events) {
      if (event.seq() == 0) {
        transientEvents.increment();
        continue;
      }
      durable.computeIfAbsent(event.type(), t -> new LongAdder()).increment();
      switch (event.type()) {
        case "decision.answered" -> waited("answered", event.data());
        case "decision.expired" -> waited("expired", event.data());
        default -> { }
      }
    }
  }

  private void waited(String outcome, JsonNode data) {
    JsonNode decision = data.path("decision");
    Instant created = instant(decision.path("created_at"));
    Instant closed = instant(decision.path("closed_at"));
    if (created == null || closed == null || closed.isBefore(created)) {
      return;
    }
    Waits waits = decisionWaits.computeIfAbsent(outcome, o -> new Waits());
    waits.count.increment();
    waits.nanos.add(Duration.between(created, closed).toNanos());
  }

  private static Instant instant(JsonNode node) {
    if (!node.isTextual()) {
      return null;
    }
    try {
      return Instant.parse(node.asText());
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
