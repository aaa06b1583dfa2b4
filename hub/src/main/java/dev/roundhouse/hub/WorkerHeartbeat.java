package dev.roundhouse.hub;

import dev.roundhouse.hub.core.HostName;
import dev.roundhouse.hub.model.Worker;
import dev.roundhouse.hub.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This hub's row in the database's worker registry: written at open, beaten every {@link #INTERVAL} (with
 * the URL the server published, once it listens), removed at a clean close. A hub that dies leaves its row
 * behind, its heartbeat ageing: {@code doctor} calls a worker silent for {@link Worker#LOST_AFTER} lost.
 *
 * <p>On SQLite one hub holds the database (the home's lock), so the rows of any other worker are a dead hub's,
 * and opening retires them. On PostgreSQL several workers share the database: opening retires only the rows
 * silent for longer than {@link Worker#LOST_AFTER}.
 *
 * <p>Thread-safe: the beats run on a timer thread of their own; no lock is held.
 */
final class WorkerHeartbeat implements AutoCloseable {
  static final Duration INTERVAL = Duration.ofSeconds(5);
  private static final Logger log = LoggerFactory.getLogger(WorkerHeartbeat.class);

  private final Store store;
  private final Clock clock;
  private final String id;
  private final ScheduledExecutorService timer;
  private volatile String url;

  private WorkerHeartbeat(Store store, Clock clock, String id) {
    this.id = id;
    this.store = store;
    this.clock = clock;
    this.timer = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().name("roundhouse-worker-heartbeat").daemon(true).factory());
  }

  /** A new worker id: chosen before the hub's parts are made (the runner leases turns to it), registered by {@link #start}. */
  static String newId() {
    return UUID.randomUUID().toString();
  }

  /** Registers this process as worker {@code id} (retiring dead hubs' rows) and starts beating. */
  static WorkerHeartbeat start(Store store, Clock clock, String id) {
    WorkerHeartbeat heartbeat = new WorkerHeartbeat(store, clock, id);
    Instant now = heartbeat.now();
    boolean shared = store.sharedWithOtherWriters();
    store.write(w -> {
      w.workers().stream()
          .filter(other -> !shared || other.lost(now))
          .forEach(dead -> w.removeWorker(dead.id()));
      w.putWorker(new Worker(heartbeat.id, HostName.local(), ProcessHandle.current().pid(), null, now, now));
      return null;
    });
    heartbeat.timer.scheduleWithFixedDelay(heartbeat::beat, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    return heartbeat;
  }

  String id() {
    return id;
  }

  /** Records where the server listens, at once. */
  void publishUrl(String published) {
    this.url = published;
    timer.execute(this::beat);
  }

  private void beat() {
    try {
      Instant now = now();
      boolean known = store.write(w -> w.beat(id, url, now));
      if (!known) {
        store.write(w -> {
          w.putWorker(new Worker(id, HostName.local(), ProcessHandle.current().pid(), url, now, now));
          return null;
        });
      }
    } catch (RuntimeException e) {
      // the store is closing, or the database is away for a moment: the next beat tries again
      log.warn("worker heartbeat failed: {}", e.getMessage());
    }
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  /** Stops beating and removes the row; a hub that is killed instead leaves it to age. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      store.write(w -> {
        w.removeWorker(id);
        return null;
      });
    } catch (RuntimeException e) {
      log.warn("could not remove this hub from the worker registry: {}", e.getMessage());
    }
  }
}
