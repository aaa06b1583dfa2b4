package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.DatabaseUrl;
import com.zaxxer.hikari.HikariDataSource;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.events.EventSink;
import dev.roundhouse.hub.model.Compaction;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL store: the same queries as SQLite's (in {@link Dialect#POSTGRESQL}), the same single
 * group-committing writer, and reads on a pool of connections (HikariCP), each in a read-only {@code
 * REPEATABLE READ} transaction so a read sees one snapshot as it does on SQLite.
 *
 * <p>Event sequence numbers come from a counter row updated in the writing transaction ({@link
 * EventInserter}), so with several hub processes writing to one database, events still commit in sequence
 * order with no gaps.
 *
 * <p>Several hub workers may share the database: {@link PostgresWriter} says how their writes take turns,
 * and {@link PostgresEventRelay} how each learns of the others' events.
 *
 * <p>Every write waits for the server's commit (with the server's {@code synchronous_commit}, on by default),
 * so "durable" means what the server's configuration says it means.
 *
 * <p>When the server goes away (a restart, a failover, a dropped connection), the write that found out
 * fails with {@code store_unavailable} (it may or may not have committed: its commit's answer was lost), and
 * the writing session ({@link PostgresWriter}: the database lock and the writer's connection) is opened
 * anew, so the writes after it go through once the server is back. A read that finds its pooled
 * connection gone runs once more on a new one (a read can).
 *
 * <p>Thread-safe.
 */
final class PostgresStore extends SqlStore {
  private static final Logger log = LoggerFactory.getLogger(PostgresStore.class);

  private final DatabaseUrl url;
  private final Clock clock;
  private final int maxBatch;
  private final EventSink sink;
  private final HikariDataSource pool;
  private final Jdbi readers;
  /** The writing session; null while a new one is being opened after the server went away. */
  private final AtomicReference<PostgresWriter> session = new AtomicReference<>();
  /** What the sessions before this one committed, for {@link #stats()}. */
  private final AtomicReference<StoreStats> retired = new AtomicReference<>(new StoreStats(0, 0, 0));
  private final int schemaVersion;
  private final PostgresEventRelay relay;
  private volatile boolean closed;

  private PostgresStore(DatabaseUrl url, Clock clock, int maxBatch, EventSink sink, PostgresWriter first,
      HikariDataSource pool) {
    this.url = url;
    this.clock = clock;
    this.maxBatch = maxBatch;
    this.sink = sink;
    this.pool = pool;
    this.readers = Jdbi.create(pool);
    this.session.set(first);
    this.schemaVersion = Migrations.latest();
    this.relay = new PostgresEventRelay(url, sink, () -> {
      PostgresWriter writer = session.get();
      return writer == null ? 0 : writer.backendPid;
    });
  }

  static PostgresStore open(DatabaseUrl url, Clock clock, int maxBatch, EventSink sink) {
    PostgresWriter first = PostgresWriter.open(url, clock, maxBatch, sink, true);
    try {
      return new PostgresStore(url, clock, maxBatch, sink, first, PostgresConnections.readerPool(url));
    } catch (RuntimeException e) {
      first.close();
      throw e;
    }
  }

  @Override
  public <T> T read(Function<StoreReader, T> work) {
    if (closed) {
      throw new RoundhouseException("store_closed", "the store is closed");
    }
    try {
      return readOnce(work);
    } catch (RuntimeException e) {
      if (!PostgresConnections.connectionLost(e)) {
        throw translated(e);
      }
    }
    // A pooled connection from before a server restart: the pool has dropped it; a read may simply run again.
    try {
      return readOnce(work);
    } catch (RuntimeException e) {
      throw translated(e);
    }
  }

  private <T> T readOnce(Function<StoreReader, T> work) {
    return readers.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, handle -> {
      handle.execute("SET TRANSACTION READ ONLY");
      return work.apply(new SqlReader(handle, Dialect.POSTGRESQL));
    });
  }

  @Override
  public <T> T write(Function<StoreWriter, T> work) {
    return submit(work, false);
  }

  @Override
  public Event append(EventDraft draft) {
    SerializedDraft serialized = SerializedDraft.of(draft);
    // One statement with no savepoint of its own: a savepoint is two more round trips to the server per event,
    // and an event insert fails only when the connection does. Should one fail, the writer rolls back its whole
    // group (a failed statement aborts a PostgreSQL transaction) and fails each write in it.
    return submit(w -> ((SqlWriter) w).append(serialized), true);
  }

  private <T> T submit(Function<StoreWriter, T> work, boolean singleStatement) {
    PostgresWriter writer = writer();
    try {
      return writer.submit(work, singleStatement);
    } catch (RuntimeException e) {
      if (!closed && PostgresConnections.connectionLost(e)) {
        replace(writer);
      }
      throw translated(e);
    }
  }

  /** The writing session, or a clear error while a new one is opened (or could not be). */
  private PostgresWriter writer() {
    PostgresWriter writer = session.get();
    if (writer != null) {
      return writer;
    }
    if (closed) {
      throw new RoundhouseException("store_closed", "the store is closed");
    }
    // The last attempt failed (the server was still away), or one is under way: try (again) now.
    replace(null);
    writer = session.get();
    if (writer == null) {
      throw new RoundhouseException("store_unavailable",
          "lost the connection to the PostgreSQL database " + url.redacted() + "; reconnecting");
    }
    return writer;
  }

  /**
   * Retires {@code lost} and opens a new session, once however many writes found it gone: the caller that
   * swaps {@code lost} out does it; the others see no session and fail at once with {@code store_unavailable}.
   * A session that cannot be opened (the server still away) leaves none, and the next write tries again.
   */
  private void replace(PostgresWriter lost) {
    if (lost != null) {
      if (!session.compareAndSet(lost, null)) {
        return; // another caller is replacing it
      }
      StoreStats done = lost.writer.stats();
      retired.updateAndGet(s -> new StoreStats(s.commits() + done.commits(), s.writes() + done.writes(),
          s.commitNanos() + done.commitNanos()));
      lost.close();
      log.warn("lost the connection to the PostgreSQL database {}; reconnecting", url.redacted());
    }
    PostgresWriter fresh;
    try {
      fresh = PostgresWriter.open(url, clock, maxBatch, sink, false);
    } catch (RoundhouseException e) {
      log.warn("cannot reconnect to the PostgreSQL database yet: {}", e.getMessage());
      return;
    }
    if (closed || !session.compareAndSet(null, fresh)) {
      fresh.close();
    } else {
      log.info("reconnected to the PostgreSQL database {}", url.redacted());
    }
  }

  /**
   * A refused NUL becomes the caller's error; a lost connection says so. PostgreSQL text cannot hold U+0000
   * (SQLite's can): the server refuses it as an invalid byte sequence (SQLSTATE 22021), so it is an {@code
   * invalid_input} naming the character, not an internal error; nothing was written.
   */
  private RuntimeException translated(RuntimeException e) {
    if (e instanceof RoundhouseException said && !PostgresConnections.connectionLost(e)) {
      return said; // already says what happened (a write undone with another's failure names that failure as its cause)
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && "22021".equals(sql.getSQLState())) {
        return new RoundhouseException.InvalidInput(
            "the text holds a NUL character (U+0000), which the PostgreSQL store cannot keep; remove it and try again");
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    if (PostgresConnections.connectionLost(e)) {
      return new RoundhouseException("store_unavailable", "lost the connection to the PostgreSQL database "
          + url.redacted() + " (a write in flight may or may not have committed); reconnecting", e);
    }
    return e;
  }

  @Override
  public StoreStats stats() {
    StoreStats before = retired.get();
    PostgresWriter writer = session.get();
    StoreStats now = writer == null ? new StoreStats(0, 0, 0) : writer.writer.stats();
    return new StoreStats(before.commits() + now.commits(), before.writes() + now.writes(),
        before.commitNanos() + now.commitNanos());
  }

  /** Other hub workers may write to this database too: the bus orders their events with this one's. */
  @Override
  public boolean sharedWithOtherWriters() {
    return true;
  }

  @Override
  public String backend() {
    return "postgresql";
  }

  @Override
  public int schemaVersion() {
    return schemaVersion;
  }

  /**
   * A plain {@code VACUUM} of the events table (what pruning deletes from), outside any transaction: it
   * makes the space reusable and gives back the table's empty tail; the server's autovacuum does the same
   * in the background. Sizes are the whole database's.
   */
  @Override
  public Compaction compact() {
    return writer().writer.submitOutsideTransaction(handle -> {
      long before = databaseSize(handle);
      handle.execute("VACUUM (ANALYZE) events");
      return new Compaction(before, databaseSize(handle), false);
    });
  }

  private static long databaseSize(Handle handle) {
    return handle.createQuery("SELECT pg_database_size(current_database())").mapTo(Long.class).one();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    relay.close();
    PostgresWriter writer = session.getAndSet(null);
    if (writer != null) {
      writer.close();
    }
    pool.close();
  }
}
