package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stdio relay's GET stream: the server's own messages for the session ({@code resources/updated}) go to
 * the client as they come. As an open stream it also keeps the hub from sweeping the session while the relay
 * runs. It is reopened when it drops (after a second); when the hub answers it with 404, the session is renewed
 * first ({@link SessionRenewal}, which replays the subscriptions); when no hub accepts the connection, it
 * follows a hub that runs elsewhere, but never starts one: nobody waits on this stream, so a hub the user
 * stopped stays stopped until the client asks for something.
 *
 * <p>Thread-safe: {@link #open} starts one virtual thread ({@code mcp-stdio-listen}), once; {@link #close}
 * interrupts it. The thread holds no lock; it writes through the relay's {@code deliver}, which serializes lines.
 */
final class ListeningStream {
  private static final Logger log = LoggerFactory.getLogger(ListeningStream.class);
  private static final Duration RELISTEN_AFTER = Duration.ofSeconds(1);
  private static final Duration OPEN_WAIT = Duration.ofSeconds(10);

  private final HubConnection hub;
  private final SessionRenewal renewal;
  private final Consumer<JsonNode> deliver;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile Thread listener;

  /** @param deliver where each message the hub sends on the stream goes (the client's stdout) */
  ListeningStream(HubConnection hub, SessionRenewal renewal, Consumer<JsonNode> deliver) {
    this.hub = hub;
    this.renewal = renewal;
    this.deliver = deliver;
  }

  /**
   * Opens the stream once the session exists (a no-op before, and after the first time), and waits up to 10 s
   * until the hub has answered it, so that nothing the client asks for next misses it.
   */
  void open() throws InterruptedException {
    CountDownLatch answered = new CountDownLatch(1);
    if (hub.session() == null || !started.compareAndSet(false, true)) {
      return;
    }
    listener = Thread.ofVirtual().name("mcp-stdio-listen").start(() -> listenUntilInterrupted(answered));
    answered.await(OPEN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Ends the stream's thread. */
  void close() {
    Thread running = listener;
    if (running != null) {
      running.interrupt();
    }
  }

  private void listenUntilInterrupted(CountDownLatch answered) {
    while (!Thread.currentThread().isInterrupted()) {
      String used = hub.session();
      try {
        HttpResponse<InputStream> response = hub.send(hub.listen().build());
        answered.countDown();
        if (response.statusCode() == 404 && used != null) {
          response.body().close();
          renewal.renew(used); // replays the subscriptions; then listen on the new session
          continue;
        }
        if (response.statusCode() != 200) {
          log.debug("the hub refused the listening stream: HTTP {}", response.statusCode());
          response.body().close();
          return;
        }
        try (InputStream body = response.body()) {
          SseMessages.forEach(body, deliver);
        }
      } catch (IOException e) {
        answered.countDown();
        log.debug("listening stream ended: {}", e.toString());
        if (HubConnection.refused(e) && used != null && followRunningHub(used)) {
          continue;
        }
        try {
          Thread.sleep(RELISTEN_AFTER); // back off before reopening
        } catch (InterruptedException interrupted) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * After the stream's connection was refused: when a hub runs (none is started), renews the session {@code used} on it and
   * returns true, so the subscriptions resume without waiting for the client's next request.
   */
  private boolean followRunningHub(String used) {
    if (!hub.hubRuns()) {
      return false;
    }
    try {
      renewal.renew(used);
      return true;
    } catch (RuntimeException | IOException e) {
      log.debug("no hub to follow yet: {}", e.getMessage());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the relay is closing: the back-off sleep ends the loop at once
      return false;
    }
  }
}
