package dev.roundhouse.app;

import dev.roundhouse.hub.core.Durations;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hubclient.HubUnavailableException;
import dev.roundhouse.hubclient.ReconnectPause;
import dev.roundhouse.hubclient.RemoteHub;
import dev.roundhouse.hubclient.SseReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Follows one task's event stream ({@code GET /api/tasks/{id}/stream}) for {@code roundhouse run --wait} until
 * the watched turn's {@code turn.ended}, handing every event to a sink. With a timeout, a watchdog on a virtual
 * thread stops the turn ({@code turn_stop}) when it expires; the stream then brings the turn's end as usual (and
 * is aborted if it does not within the stop grace). A dropped stream is reopened after the last event seen,
 * a few times, before the hub counts as lost (exit 3).
 *
 * <p>Thread-safety: {@link #follow} runs on one thread; the watchdog only calls {@code turn_stop} and closes
 * the stream's own client. No lock.
 */
final class RunFollower {
  /** How long after a timeout's {@code turn_stop} the stream may take to bring the turn's end. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(20);
  private static final int RECONNECTS = 30;

  private final HubEndpoint endpoint;
  private final RemoteHub operations;
  private final long task;
  private final long turn;
  private final Consumer<String> notices;
  private final AtomicBoolean timedOut = new AtomicBoolean();
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile RemoteHub streamClient;
  private volatile boolean aborted;

  /**
   * @param operations the client for {@code turn_stop}
   * @param notices one-line notes for humans (stderr)
   */
  RunFollower(HubEndpoint endpoint, RemoteHub operations, long task, long turn, Consumer<String> notices) {
    this.endpoint = endpoint;
    this.operations = operations;
    this.task = task;
    this.turn = turn;
    this.notices = notices;
  }

  /** True when the timeout expired and the turn was asked to stop. */
  boolean timedOut() {
    return timedOut.get();
  }

  /**
   * Hands the task's events to {@code sink} until the turn ends.
   *
   * @param timeout how long the turn may run before it is stopped; null for no limit
   * @param stream the task's stream when already open (opened before the turn started, so no live delta is
   *     missed); null to open it here
   * @param client the client {@code stream} was opened with (closed here)
   * @throws CliFailure exit 3 when the hub is lost and does not come back
   */
  void follow(Duration timeout, InputStream stream, RemoteHub client, Consumer<JsonNode> sink) {
    Thread watchdog = timeout == null ? null : Thread.ofVirtual().name("roundhouse-run-timeout").start(() -> watch(timeout));
    try {
      read(stream, client, sink);
    } finally {
      ended.countDown(); // wakes the watchdog's waits
      if (watchdog != null) {
        finish(watchdog);
      }
    }
  }

  /**
   * Lets the watchdog finish a {@code turn_stop} it is making: the turn's end often arrives on the stream before
   * the stop's answer, and interrupting the call then broke the client's connection under the next request
   * ({@code turn_outcome}), so the run exited 3 instead of 7. Interrupted only if it is still busy after the grace.
   */
  private static void finish(Thread watchdog) {
    try {
      if (!watchdog.join(STOP_GRACE)) {
        watchdog.interrupt();
      }
    } catch (InterruptedException e) {
      watchdog.interrupt();
      Thread.currentThread().interrupt();
    }
  }

  private void read(InputStream first, RemoteHub firstClient, Consumer<JsonNode> sink) {
    long last = 0;
    InputStream stream = first;
    streamClient = firstClient;
    int reconnects = 0;
    try (ReconnectPause pause = new ReconnectPause(Duration.ofSeconds(1))) {
      while (true) {
        String lost;
        try {
          if (stream == null) {
            streamClient = endpoint.connect();
            stream = streamClient.openTaskEvents(task, last == 0 ? null : last);
          }
          try (InputStream body = stream) {
            SseReader reader = new SseReader(body);
            while (true) {
              Optional<SseReader.Item> item = reader.next();
              if (item.isEmpty()) {
                lost = "the hub ended the stream";
                break;
              }
              if (!(item.get() instanceof SseReader.Message message)) {
                continue;
              }
              JsonNode event = parse(message.data());
              last = Math.max(last, event.path("seq").asLong());
              sink.accept(event);
              if (message.event().equals("turn.ended") && event.path("data").path("turn").asLong() == turn) {
                return;
              }
            }
          }
        } catch (IOException | UncheckedIOException e) {
          lost = "connection lost: " + e.getMessage();
        } catch (HubUnavailableException e) {
          lost = e.getMessage();
        } finally {
          stream = null;
          RemoteHub client = streamClient;
          if (client != null) {
            client.close();
          }
        }
        if (aborted) {
          throw new CliFailure(ExitCode.TIMED_OUT, "timed_out",
              "timed out, and turn " + turn + " did not end within " + STOP_GRACE.toSeconds() + " s of being stopped");
        }
        if (++reconnects > RECONNECTS) {
          throw new CliFailure(ExitCode.NO_HUB, "hub_lost", "lost the hub's stream of task " + task + " (" + lost + ")");
        }
        notices.accept("lost task " + task + "'s event stream (" + lost + "); reconnecting");
        pause.pause();
      }
    }
  }

  private void watch(Duration timeout) {
    try {
      if (ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        return;
      }
      timedOut.set(true);
      notices.accept("timed out after " + Durations.format(timeout) + "; stopping turn " + turn + " of task " + task);
      try {
        operations.turnStop(task);
      } catch (RuntimeException e) {
        notices.accept("could not stop turn " + turn + ": " + e.getMessage());
      }
      if (!ended.await(STOP_GRACE.toNanos(), TimeUnit.NANOSECONDS)) {
        aborted = true;
        RemoteHub client = streamClient;
        if (client != null) {
          client.close();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the run itself is being torn down
    }
  }

  private static JsonNode parse(String json) {
    try {
      return Json.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw new CliFailure(ExitCode.FAILED, "bad_event", "the hub sent an event that is not JSON: " + e.getOriginalMessage());
    }
  }
}
