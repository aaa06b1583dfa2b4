package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.events.EventSink;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.IntSupplier;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells this worker's event bus when other workers on the database have committed events: it listens on
 * {@link PostgresWriter#CHANNEL} (every group transaction notifies it; the server delivers a notice when, and
 * only if, the transaction commits, in commit order) on a connection of its own, and calls {@link
 * EventSink#othersCommitted()} for any notice not sent by this worker's own writer. The bus then reads the
 * log forward, so a notice needs no content and several coalesce into one read.
 *
 * <p>It also calls it every {@link #SAFETY_NET} without a notice: notices sent while this connection was
 * being reopened are lost, and that read finds what they announced.
 *
 * <p>Thread-safe: one thread of its own, which alone touches the connection; {@link #close()} stops it.
 */
final class PostgresEventRelay implements AutoCloseable {
  static final Duration SAFETY_NET = Duration.ofSeconds(2);
  private static final Logger log = LoggerFactory.getLogger(PostgresEventRelay.class);

  private final DatabaseUrl url;
  private final EventSink sink;
  private final IntSupplier ownWriter;
  private final Thread thread;
  private volatile boolean closed;
  private volatile Connection connection;

  /** @param ownWriter the server process of this worker's writer connection now (its notices are skipped) */
  PostgresEventRelay(DatabaseUrl url, EventSink sink, IntSupplier ownWriter) {
    this.url = url;
    this.sink = sink;
    this.ownWriter = ownWriter;
    this.thread = Thread.ofPlatform().name("roundhouse-event-relay").daemon(true).start(this::run);
  }

  private void run() {
    long backoffMillis = 100;
    while (!closed) {
      try (Connection listening = PostgresConnections.connect(url, "roundhouse listener")) {
        connection = listening;
        try (Statement listen = listening.createStatement()) {
          listen.execute("LISTEN " + PostgresWriter.CHANNEL);
        }
        backoffMillis = 100;
        sink.othersCommitted(); // whatever was committed while no one listened
        relay(listening.unwrap(PGConnection.class));
      } catch (SQLException | RuntimeException e) {
        if (closed) {
          return;
        }
        log.warn("listening for other workers' events on {} failed ({}); listening again in {} ms", url.redacted(),
            e.getMessage(), backoffMillis);
        try {
          Thread.sleep(backoffMillis); // a retry's pause, not a wait for an event
        } catch (InterruptedException interrupted) {
          return;
        }
        backoffMillis = Math.min(backoffMillis * 2, 5_000);
      }
    }
  }

  private void relay(PGConnection listening) throws SQLException {
    while (!closed) {
      PGNotification[] notices = listening.getNotifications((int) SAFETY_NET.toMillis());
      if (notices == null || notices.length == 0) {
        sink.othersCommitted();
        continue;
      }
      int own = ownWriter.getAsInt();
      for (PGNotification notice : notices) {
        if (notice.getPID() != own) {
          sink.othersCommitted();
          break;
        }
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    Connection open = connection;
    if (open != null) {
      PostgresConnections.closeQuietly(open); // ends the wait in getNotifications
    }
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
