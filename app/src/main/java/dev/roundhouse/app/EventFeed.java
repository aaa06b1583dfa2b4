package dev.roundhouse.app;

import dev.roundhouse.hubclient.HubUnavailableException;
import dev.roundhouse.hubclient.ReconnectPause;
import dev.roundhouse.hubclient.RemoteHub;
import dev.roundhouse.hubclient.SseReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Reads the hub's event stream for {@code roundhouse events}.
 *
 * <p><b>Replay</b> ({@code follow = false}): asks {@code GET /api/events?after=N&follow=false}, hands over
 * every event after N and returns at the hub's {@code end} event, which the hub sends once the replay has
 * caught up. A hub from before {@code follow=false} ignores it and goes on streaming live; with such a hub
 * the replay ends at its first {@code : keep-alive} comment (sent after a quiet keep-alive interval, so only
 * once the replay is done). A {@code closed} event (the hub dropped a reader that fell behind) resumes at
 * once with {@code Last-Event-ID}; a stream that ends before {@code end} is a failure (exit 3).
 *
 * <p><b>Follow</b>: replays and then follows live events until {@link #close()}. After a drop (hub
 * restarted, connection lost, or the hub's {@code closed} event for a reader that fell behind) it finds the
 * hub again (its URL may have changed) and reconnects with {@code Last-Event-ID} set to the last sequence
 * number it handed over, so no event is missed or repeated. It retries every {@code retryDelay} until the
 * hub is back.
 *
 * <p>Thread-safety: {@link #run} runs on one thread; {@link #close()} may be called from any thread and
 * makes {@code run} return promptly. The only lock is the {@link ReconnectPause}'s, held only for the
 * wait between attempts; no I/O happens under it.
 */
final class EventFeed implements AutoCloseable {
  private final Supplier<HubEndpoint> connector;
  private final Consumer<String> notices;
  private final ReconnectPause pause;
  private volatile RemoteHub current;

  /**
   * @param connector finds the hub; called again for every reconnect (the hub may have moved)
   * @param retryDelay the wait between reconnect attempts while following
   * @param notices receives one-line notes for humans (lost the hub, reconnected)
   */
  EventFeed(Supplier<HubEndpoint> connector, Duration retryDelay, Consumer<String> notices) {
    this.connector = connector;
    this.pause = new ReconnectPause(retryDelay);
    this.notices = notices;
  }

  /**
   * Hands every event after {@code after} to {@code sink}, in order, each once.
   *
   * @return the sequence number of the last event handed over ({@code after} if none)
   * @throws CliFailure when the hub cannot be reached at the start or (replay only) is lost before the
   *     replay ends
   * @throws dev.roundhouse.hubclient.HubErrorException when the hub refuses the request (its sentence)
   */
  long run(long after, boolean follow, Consumer<SseReader.Message> sink) {
    long last = after;
    boolean connectedBefore = false;
    boolean outage = false;
    while (!pause.closed()) {
      String lost;
      boolean resumable = false;
      RemoteHub client = null;
      try {
        HubEndpoint endpoint = connector.get();
        client = endpoint.connect();
        current = client;
        if (pause.closed()) {
          break;
        }
        InputStream body = open(endpoint, client, last, follow, connectedBefore ? last : null);
        if (outage) {
          notices.accept("reconnected to the hub at " + endpoint.url() + "; resuming after event " + last);
          outage = false;
        }
        connectedBefore = true;
        Outcome outcome = read(body, follow, last, sink);
        last = outcome.last();
        if (outcome.finished()) {
          return last;
        }
        lost = outcome.reason();
        resumable = outcome.resumable();
      } catch (CliFailure failure) {
        if (!follow || !connectedBefore || failure.exit() != ExitCode.NO_HUB) {
          throw failure;
        }
        lost = failure.getMessage();
      } finally {
        current = null;
        if (client != null) {
          client.close();
        }
      }
      if (pause.closed()) {
        break;
      }
      if (!follow && !resumable) {
        throw new CliFailure(
            ExitCode.NO_HUB, "stream_ended", "the event stream ended before the replay was complete (" + lost + "; last event " + last + ")");
      }
      if (resumable) {
        continue; // the hub asked for it: reconnect at once, quietly
      }
      if (!outage) {
        notices.accept("lost the hub's event stream (" + lost + "); reconnecting");
        outage = true;
      }
      pause.pause();
    }
    return last;
  }

  /** Opens the stream; a hub that cannot be reached is the CLI's failure (see {@link HubEndpoint#failure}). */
  private static InputStream open(HubEndpoint endpoint, RemoteHub client, long after, boolean follow, Long lastEventId) {
    try {
      return client.http().openEvents(after, follow, lastEventId);
    } catch (HubUnavailableException e) {
      throw endpoint.failure(e);
    }
  }

  /** How one connection ended: finished (replay done), resumable (the hub dropped a slow reader), or lost. */
  private record Outcome(long last, boolean finished, boolean resumable, String reason) {}

  private Outcome read(InputStream body, boolean follow, long last, Consumer<SseReader.Message> sink) {
    try (body) {
      SseReader reader = new SseReader(body);
      while (true) {
        Optional<SseReader.Item> item = reader.next();
        if (item.isEmpty()) {
          return new Outcome(last, false, false, "the hub ended the stream");
        }
        switch (item.get()) {
          case SseReader.Comment comment -> {
            if (!follow && comment.text().equals("keep-alive")) {
              return new Outcome(last, true, false, null); // a hub that does not know follow=false
            }
          }
          case SseReader.Message message when message.event().equals("end") -> {
            return new Outcome(last, true, false, null);
          }
          case SseReader.Message message when message.event().equals("closed") -> {
            return new Outcome(last, false, true, "the hub closed it: " + message.data());
          }
          case SseReader.Message message -> {
            long seq = sequence(message);
            if (seq > last) {
              last = seq;
              sink.accept(message);
            }
          }
        }
      }
    } catch (IOException | UncheckedIOException e) {
      if (pause.closed()) {
        return new Outcome(last, false, false, "closed");
      }
      return new Outcome(last, false, false, "connection lost: " + e.getMessage());
    }
  }

  private static long sequence(SseReader.Message message) {
    try {
      return Long.parseLong(message.id());
    } catch (NumberFormatException e) {
      throw new CliFailure(
          ExitCode.FAILED, "bad_event", "the hub sent a " + message.event() + " event without a sequence number (id '" + message.id() + "')");
    }
  }

  /** Ends {@link #run}: aborts the stream being read and any wait between attempts. */
  @Override
  public void close() {
    pause.close(); // first, so that the aborted read below knows it was asked for
    RemoteHub client = current;
    if (client != null) {
      client.close();
    }
  }
}
