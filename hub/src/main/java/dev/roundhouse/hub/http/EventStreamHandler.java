package dev.roundhouse.hub.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventStream;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code GET /api/events?after=N}: Server-Sent Events, replaying every event after N (or after the
 * {@code Last-Event-ID} a reconnecting client sends) and then following live. Each event's {@code id} is
 * its sequence number. A viewer that falls behind its buffer gets a final {@code closed} event with the
 * reason and is disconnected; it resumes by reconnecting with the last id it saw. With {@code
 * follow=false} the stream ends with an {@code end} event once the replay has caught up.
 *
 * <p>One virtual thread per viewer; blocking writes stall only that viewer. Thread-safe.
 */
final class EventStreamHandler {
  /** Writes an event's JSON into the response without closing or flushing it (flushes are per burst). */
  private static final ObjectWriter EVENT_JSON = Json.mapper().writer()
      .without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
      .without(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);

  private final Hub hub;
  private final Duration keepAlive;

  EventStreamHandler(Hub hub, Duration keepAlive) {
    this.hub = hub;
    this.keepAlive = keepAlive;
  }

  /**
   * Streams all events ({@code task} null) or one task's, starting after the client's position, or
   * {@code defaultAfter} when it gives none (-1: live only).
   */
  void handle(HttpServerExchange exchange, Long task, long defaultAfter) throws IOException {
    if (!exchange.getRequestMethod().toString().equals("GET")) {
      exchange.getResponseHeaders().put(Headers.ALLOW, "GET");
      throw new RoundhouseException("method_not_allowed", "use GET on /api/events");
    }
    long after = startingPoint(exchange, defaultAfter);
    boolean follow = !"false".equals(query(exchange, "follow"));
    try (EventStream stream = hub.events().open(after, hub.config().streamBuffer(), task)) {
      exchange.setStatusCode(200);
      exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/event-stream; charset=utf-8");
      exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
      exchange.getResponseHeaders().put(new io.undertow.util.HttpString("X-Accel-Buffering"), "no");
      exchange.startBlocking();
      OutputStream out = exchange.getOutputStream();
      write(out, "retry: 1000\n: roundhouse events after " + after + "\n\n");
      out.flush();
      boolean pending = false; // written but not yet flushed
      while (true) {
        Optional<Event> next;
        try {
          // Under load, write whatever is ready and flush once when the stream runs dry: one syscall for
          // a burst instead of one per event.
          next = stream.next(pending ? Duration.ZERO : follow ? keepAlive : Duration.ZERO);
        } catch (EventStream.EventStreamClosed closed) {
          write(out, "event: closed\ndata: " + Json.write(java.util.Map.of("reason", closed.getMessage(), "last_seq", stream.position())) + "\n\n");
          out.flush();
          break;
        }
        if (next.isEmpty() && pending) {
          out.flush();
          pending = false;
          continue;
        }
        if (next.isEmpty() && !follow) {
          write(out, "event: end\ndata: " + Json.write(java.util.Map.of("last_seq", stream.position())) + "\n\n");
          out.flush();
          break;
        }
        if (next.isEmpty()) {
          write(out, ": keep-alive\n\n");
          out.flush();
          continue;
        }
        Event event = next.get();
        // Transient events (text deltas, seq 0) carry no id, so a reconnect resumes after the last stored one.
        String id = event.seq() == 0 ? "" : "id: " + event.seq() + "\n";
        write(out, id + "event: " + event.type() + "\ndata: ");
        EVENT_JSON.writeValue(out, event); // straight into the stream: no String, no second UTF-8 copy
        write(out, "\n\n");
        pending = true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // The viewer went away; nothing to tell it.
    }
    exchange.endExchange();
  }

  private long startingPoint(HttpServerExchange exchange, long defaultAfter) {
    String lastId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
    String after = query(exchange, "after");
    String chosen = lastId != null && !lastId.isBlank() ? lastId : after;
    if (chosen == null) {
      return defaultAfter >= 0 ? defaultAfter : hub.events().lastSeqOrZero();
    }
    try {
      long value = Long.parseLong(chosen.strip());
      if (value < 0) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw new RoundhouseException.InvalidInput(
          "'" + chosen + "' is not a valid event sequence number (a whole number, 0 for everything)");
    }
  }

  private static String query(HttpServerExchange exchange, String name) {
    var values = exchange.getQueryParameters().get(name);
    return values == null || values.isEmpty() ? null : values.getFirst();
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
  }
}
