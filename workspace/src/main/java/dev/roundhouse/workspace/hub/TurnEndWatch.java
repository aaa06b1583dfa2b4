package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.events.EventStream;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the hub's event stream for {@code turn.ended} of tasks with a workspace, so the diff resource's
 * subscribers hear that an agent's turn (which may have changed files) is over. One virtual thread,
 * {@code workspace-turn-watch}; a stream that falls behind is reopened where it stopped.
 *
 * <p>Thread-safe: {@link #close} may be called from any thread; the stream is read by the watch's thread only.
 */
final class TurnEndWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TurnEndWatch.class);
  static final String TURN_ENDED = "turn.ended";

  private final EventBus events;
  private final LongPredicate hasWorkspace;
  private final LongConsumer ended;
  private final Thread thread;
  private volatile boolean closed;
  private volatile EventStream stream;

  private TurnEndWatch(EventBus events, LongPredicate hasWorkspace, LongConsumer ended) {
    this.events = events;
    this.hasWorkspace = hasWorkspace;
    this.ended = ended;
    this.stream = events.open(events.lastSeqOrZero(), 4096);
    this.thread = Thread.ofVirtual().name("workspace-turn-watch").unstarted(this::run);
  }

  /** Starts following the stream from now on. */
  static TurnEndWatch start(EventBus events, LongPredicate hasWorkspace, LongConsumer ended) {
    TurnEndWatch watch = new TurnEndWatch(events, hasWorkspace, ended);
    watch.thread.start();
    return watch;
  }

  private void run() {
    while (!closed) {
      EventStream current = stream;
      try {
        Optional<Event> next = current.next(Duration.ofMillis(500));
        if (next.isPresent() && next.get().type().equals(TURN_ENDED) && next.get().taskId() != null
            && hasWorkspace.test(next.get().taskId())) {
          ended.accept(next.get().taskId());
        }
      } catch (EventStream.EventStreamClosed e) {
        if (closed) {
          return;
        }
        log.debug("event stream closed ({}); reopening after {}", e.getMessage(), current.position());
        stream = events.open(current.position(), 4096);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        log.warn("workspace turn watch: {}", e.getMessage(), e);
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    stream.close();
    thread.interrupt();
    try {
      thread.join(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stream.close();
  }
}
