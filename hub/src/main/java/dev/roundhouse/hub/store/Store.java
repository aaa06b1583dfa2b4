package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.events.EventLog;
import dev.roundhouse.hub.events.EventSink;
import dev.roundhouse.hub.model.Worker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.time.Clock;
import java.util.function.Function;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Compaction;

/**
 * The hub's durable state, on SQLite (embedded, the default) or PostgreSQL. All SQL lives behind this
 * interface, in the two backends' shared queries ({@link Dialect}).
 *
 * <p>Writes are serialised through one writer and group-committed: work submitted together by several
 * threads shares one durable transaction, each piece in its own savepoint so one failure does not undo the
 * others. A write's events are handed to the {@link EventSink} only after its transaction committed.
 *
 * <p>Thread-safe.
 */
public interface Store extends EventLog, AutoCloseable {

  /** Runs {@code work} against a consistent snapshot. */
  <T> T read(Function<StoreReader, T> work);

  /**
   * Runs {@code work} in the writer's transaction and returns once it is durable. An exception thrown by
   * {@code work} undoes only its own changes and is rethrown here. Must not be called from inside a write.
   */
  <T> T write(Function<StoreWriter, T> work);

  /**
   * Appends one event and returns it once durable: the hot path for streamed turn events. A single insert
   * is atomic on its own, so it shares a group commit without a savepoint of its own.
   */
  Event append(EventDraft draft);

  /**
   * Gives the pages that deletes freed back to the file system: an incremental vacuum (the first time, for a
   * database created without incremental vacuum, one full {@code VACUUM} that switches it on), with the WAL
   * checkpointed before and after so the file's size is measured truly. Runs on the writer, between
   * transactions (SQLite refuses both inside one), so writes wait while it runs. Must not be called from
   * inside a write.
   */
  Compaction compact();

  /** What the writer has done since the store opened. */
  StoreStats stats();

  /** The schema version of the open database. */
  int schemaVersion();

  @Override
  void close();

  /**
   * Opens (creating and migrating as needed) the SQLite database at {@code file}.
   *
   * @param maxBatch the most writes that share one transaction; 1 turns group commit off
   */
  static Store sqlite(Path file, Clock clock, int maxBatch, EventSink sink) {
    return SqliteStore.open(file, clock, maxBatch, sink);
  }

  /**
   * Opens (migrating as needed) the PostgreSQL database at {@code url}. Several hub processes may open one
   * database at once: one migrates while the others wait.
   *
   * @param maxBatch the most writes that share one transaction; 1 turns group commit off
   */
  static Store postgres(DatabaseUrl url, Clock clock, int maxBatch, EventSink sink) {
    return PostgresStore.open(url, clock, maxBatch, sink);
  }

  /**
   * Connects to the PostgreSQL database at {@code url} without changing it and describes it: the server's
   * version and the schema version it holds ({@code doctor}). Throws {@code store_unavailable} naming what
   * went wrong when it cannot connect.
   */
  static String describe(DatabaseUrl url) {
    return PostgresConnections.describe(url);
  }

  /**
   * The hub processes registered on the PostgreSQL database at {@code url}, read without changing anything
   * ({@code doctor}); none when its schema predates the registry. Throws {@code store_unavailable} when it
   * cannot connect.
   */
  static List<Worker> workers(DatabaseUrl url) {
    return PostgresConnections.workers(url);
  }

  /**
   * Copies the SQLite database {@code sqlite} into the empty PostgreSQL database at {@code target}, every row
   * kept with its id and sequence number, in one transaction; returns the rows copied per table. No hub may
   * be using either.
   */
  static Map<String, Long> copySqliteToPostgres(Path sqlite, DatabaseUrl target) {
    return StoreCopy.copy(sqlite, target);
  }

  /** The backend behind this store: {@code sqlite} or {@code postgresql}. */
  String backend();
}
