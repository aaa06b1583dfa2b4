package dev.roundhouse.hubclient;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Follows one of the hub's event streams (the global one, or one task's) on a thread of its own and hands
 * every stored event to a {@link Listener}, in sequence order, each once. After a drop (hub restarted,
 * connection lost, or the hub's {@code closed} event for a reader that fell behind) it reconnects with
 * {@code Last-Event-ID} set to the last sequence number handed over (or, before any event, the position the
 * stream said it started from), so nothing is missed or repeated; it retries every {@code retryDelay} until
 * the hub is back. Transient events ({@code seq} 0, such as a task stream's text deltas) go to
 * {@link Listener#transientEvent} and are never replayed.
 *
 * <p>Each connection has its own {@link HubHttp} (from {@code connect}), so that {@link #close()} can
 * abort a blocked read by shutting it down.
 *
 * <p>Thread-safety: the listener is called on the follower's thread only; {@link #close()} may be called
 * from any thread (the listener's included) and stops the thread promptly. The only lock is the
 * {@link ReconnectPause}'s, held only for the wait between attempts; no I/O and no listener call happens
 * under it.
 */
public final class EventFollower implements AutoCloseable {

  /** Receives what the follower sees. Called on the follower's thread. */
  public interface Listener {
    /** One stored event, as the hub sent it ({@code seq}, {@code type}, {@code at}, {@code actor}, …). */
    void event(long seq, JsonNode event);

    /** A transient event ({@code seq} 0, such as {@code turn.text_delta}): live only, never replayed. */
    default void transientEvent(JsonNode event) {}

    /**
     * The stream is open: for the first time, or again after a drop ({@code resumed} true). {@code lastSeq}
     * is where it starts: the events after it follow.
     */
    default void connected(boolean resumed, long lastSeq) {}

    /** The stream was lost; the follower is reconnecting. */
    default void lost(String reason, long lastSeq) {}

    /**
     * Whether to try again after the hub refused to open the stream; false ends the follower (after
     * {@link #lost}). By default every failure is retried.
     */
    default boolean retry(RoundhouseException failure) {
      return true;
    }
  }

  /** Opens the stream to follow after a sequence number (null: the stream's default start). */
  @FunctionalInterface
  public interface Source {
    InputStream open(HubHttp hub, Long after);
  }

  private static final String HEADER = "roundhouse events after ";

  private final Supplier<HubHttp> connect;
  private final Source source;
  private final Listener listener;
  private final Thread thread;
  private final ReconnectPause pause;
  private volatile HubHttp current;

  /**
   * Starts following the global event stream.
   *
   * @param connect opens a new connection to the hub (one per attempt; closed when it ends)
   * @param after replay every event after this sequence number first; null for live events from now
   */
  public EventFollower(Supplier<HubHttp> connect, Long after, Duration retryDelay, String name, Listener listener) {
    this(connect, HubHttp::openEvents, after, retryDelay, name, listener);
  }

  /**
   * Starts following the stream {@code source} opens.
   *
   * @param connect opens a new connection to the hub (one per attempt; closed when it ends)
   * @param after replay every event after this sequence number first; null for the stream's default start
   */
  public EventFollower(Supplier<HubHttp> connect, Source source, Long after, Duration retryDelay, String name, Listener listener) {
    this.connect = connect;
    this.source = source;
    this.pause = new ReconnectPause(retryDelay);
    this.listener = listener;
    this.thread = Thread.ofVirtual().name(name).start(() -> run(after));
  }

  private void run(Long after) {
    Long last = after;
    boolean connectedBefore = false;
    boolean outage = false;
    while (!pause.closed()) {
      String lost;
      boolean resumable = false;
      try (HubHttp hub = connect.get()) {
        current = hub;
        if (pause.closed()) {
          break;
        }
        InputStream body = source.open(hub, last);
        outage = false;
        Outcome outcome = read(body, last, connectedBefore);
        connectedBefore = true;
        last = outcome.last();
        lost = outcome.reason();
        resumable = outcome.resumable();
      } catch (RoundhouseException failure) {
        lost = failure.getMessage();
        if (!pause.closed() && !listener.retry(failure)) {
          listener.lost(lost, last == null ? 0 : last);
          break;
        }
      } catch (RuntimeException bug) {
        lost = "unexpected failure: " + bug;
      } finally {
        current = null;
      }
      if (pause.closed()) {
        break;
      }
      if (resumable) {
        continue; // the hub asked for it: reconnect at once, quietly
      }
      if (!outage) {
        listener.lost(lost, last == null ? 0 : last);
        outage = true;
      }
      pause.pause();
    }
  }

  private record Outcome(Long last, boolean resumable, String reason) {}

  /**
   * Reads one connection's stream. The hub opens it with {@code : roundhouse events after N}: that is where
   * the stream starts, announced to the listener before any event (and remembered, so a reconnect before
   * the first event resumes there).
   */
  private Outcome read(InputStream body, Long last, boolean resumed) {
    boolean announced = false;
    try (body) {
      SseReader reader = new SseReader(body);
      while (true) {
        Optional<SseReader.Item> item = reader.next();
        if (item.isEmpty()) {
          return new Outcome(last, false, "the hub ended the stream");
        }
        if (!announced) {
          announced = true;
          if (item.get() instanceof SseReader.Comment comment && comment.text().startsWith(HEADER)) {
            long start = sequence(comment.text().substring(HEADER.length()).strip());
            if (last == null) {
              last = start;
            }
            listener.connected(resumed, last);
            continue;
          }
          listener.connected(resumed, last == null ? 0 : last);
        }
        switch (item.get()) {
          case SseReader.Comment comment -> {
            // keep-alive
          }
          case SseReader.Message message when message.event().equals("closed") -> {
            return new Outcome(last, true, "the hub closed it: " + message.data());
          }
          case SseReader.Message message when message.id() == null || message.id().isEmpty() -> {
            JsonNode event = parse(message.data());
            if (event != null && event.path("seq").asLong(-1) == 0) {
              listener.transientEvent(event);
            }
          }
          case SseReader.Message message -> {
            long seq = sequence(message.id());
            if (seq > 0 && (last == null || seq > last)) {
              JsonNode event;
              try {
                event = Json.mapper().readTree(message.data());
              } catch (IOException e) {
                continue; // not JSON: nothing a client could use
              }
              last = seq;
              listener.event(seq, event);
            }
          }
        }
      }
    } catch (IOException | UncheckedIOException e) {
      return new Outcome(last, false, pause.closed() ? "closed" : "connection lost: " + e.getMessage());
    }
  }

  private static JsonNode parse(String data) {
    try {
      return Json.mapper().readTree(data);
    } catch (IOException e) {
      return null; // not JSON: nothing a client could use
    }
  }

  private static long sequence(String id) {
    try {
      return id == null ? 0 : Long.parseLong(id);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Stops following: aborts the stream being read and any wait between attempts. */
  @Override
  public void close() {
    pause.close(); // first, so that the aborted read below knows it was asked for
    HubHttp hub = current;
    if (hub != null) {
      hub.close(); // aborts the response being read
    }
  }

  /** Waits for the follower's thread to end (after {@link #close()}). */
  public boolean awaitEnd(Duration timeout) throws InterruptedException {
    return thread.join(timeout);
  }
}
