package dev.roundhouse.mcpserver;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces the stdio relay's MCP session when the hub no longer knows it (it answered 404: the session
 * expired, or the hub restarted) or no hub answers at its address any more (a refused connection: the hub
 * moved). The new session is started on the hub where the {@link HubLocator} finds it now, with the client's
 * own {@code initialize}, and told again what the client told the old one ({@link ClientReplay}); the answers
 * to these replays are swallowed, since the client never asked for them.
 *
 * <p>Thread-safe: a renewal is a single flight. Concurrent callers that name the same stale session wait for
 * the one {@link CompletableFuture} the first of them published in an {@link AtomicReference}; no lock is held,
 * so nothing waits on a lock during the renewal's I/O. A renewal that failed is tried again by the next caller.
 */
final class SessionRenewal {
  private static final Logger log = LoggerFactory.getLogger(SessionRenewal.class);
  private static final Duration REPLAY_TIMEOUT = Duration.ofSeconds(30);

  private final HubConnection hub;
  private final ClientReplay replay;
  private final AtomicReference<Recovery> recovery = new AtomicReference<>();

  /** A new session being started in place of {@code stale}; {@code next} completes with its id. */
  private record Recovery(String stale, CompletableFuture<String> next) {}

  SessionRenewal(HubConnection hub, ClientReplay replay) {
    this.hub = hub;
    this.replay = replay;
  }

  /**
   * Replaces the session {@code stale} with a new one on the hub where it is now, unless another thread already
   * did or is doing it (then waits for that one). Returns the session to use now.
   *
   * @throws IOException when no new session could be started, with a sentence saying why
   */
  String renew(String stale) throws IOException, InterruptedException {
    while (true) {
      Recovery current = recovery.get();
      if (current != null && current.stale().equals(stale) && !current.next().isCompletedExceptionally()) {
        return await(current.next());
      }
      String now = hub.session();
      if (now != null && !now.equals(stale)) {
        return now; // replaced already
      }
      Recovery mine = new Recovery(stale, new CompletableFuture<>());
      if (recovery.compareAndSet(current, mine)) {
        try {
          mine.next().complete(reinitialize(stale));
        } catch (IOException | RuntimeException e) {
          mine.next().completeExceptionally(e);
        } catch (InterruptedException e) {
          mine.next().completeExceptionally(new IOException("the relay was interrupted while renewing session " + stale));
          throw e;
        }
        return await(mine.next());
      }
    }
  }

  private static String await(CompletableFuture<String> next) throws IOException, InterruptedException {
    try {
      return next.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause().getMessage(), e.getCause());
    }
  }

  /** Starts a new session with the client's own initialize, and replays into it what the client told the old one. */
  private String reinitialize(String stale) throws IOException, InterruptedException {
    String hello = replay.initialize().orElseThrow(
        () -> new IOException("the hub does not know session " + stale + " and the client never initialized one"));
    hub.relocate(true);
    // Without a session header, and without replacing the session yet: requests sent meanwhile still name the
    // stale session, get 404 (or a refused connection), and wait for this renewal in renew().
    HttpResponse<InputStream> answer = hub.send(hub.postWithoutSession(hello).timeout(REPLAY_TIMEOUT).build());
    try (InputStream body = answer.body()) {
      body.readAllBytes(); // the client's answer to initialize came long ago; this one is the relay's
    }
    String fresh = answer.headers().firstValue(HubConnection.SESSION).orElse(null);
    if (answer.statusCode() != 200 || fresh == null) {
      throw new IOException("the hub forgot session " + stale + " and refused a new one (HTTP " + answer.statusCode() + ")");
    }
    hub.replaceSession(fresh);
    for (String line : replay.afterInitialize()) {
      int status = hub.sendDiscarding(hub.post(line).timeout(REPLAY_TIMEOUT).build());
      if (status >= 400) {
        log.warn("replaying {} into the new session failed: HTTP {}", line, status);
      }
    }
    log.info("the hub at {} does not know MCP session {} (it expired, or the hub restarted): relaying to a new session {}",
        hub.endpoint(), stale, fresh);
    return fresh;
  }
}
