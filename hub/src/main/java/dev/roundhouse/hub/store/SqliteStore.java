package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import dev.roundhouse.hub.events.EventDraft;
import java.sql.SQLException;

/**
 * The SQLite store: WAL mode, {@code synchronous=FULL} (a commit is on disk when it returns), foreign keys
 * on. One writer connection owned by the {@link GroupCommitWriter}; reads use a small pool of other
 * connections, which WAL lets run alongside the writer.
 *
 * <p>Thread-safe.
 */
final class SqliteStore implements Store {
  private static final int READ_POOL = 4;

  private final Jdbi readers;
  private final BlockingQueue<Handle> idleReaders = new ArrayBlockingQueue<>(READ_POOL);
  private final Handle writerHandle;
  private final EventInserter eventInserter;
  private final GroupCommitWriter writer;
  private final int schemaVersion;
  private volatile boolean closed;

  private SqliteStore(Jdbi readers, Handle writerHandle, Clock clock, int maxBatch, EventSink sink) {
    this.readers = readers;
    this.writerHandle = writerHandle;
    this.schemaVersion = Migrations.migrate(writerHandle);
    try {
      this.eventInserter = new EventInserter(writerHandle.getConnection());
    } catch (SQLException e) {
      throw new RoundhouseException("store_unavailable", "cannot prepare the event insert: " + e.getMessage(), e);
    }
    this.writer =
        new GroupCommitWriter(
            writerHandle,
            maxBatch,
            sink,
            events -> new SqliteWriter(writerHandle, clock, eventInserter, events));
  }

  static SqliteStore open(Path file, Clock clock, int maxBatch, EventSink sink) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the folder for " + file, e);
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.enforceForeignKeys(true);
    config.setBusyTimeout(10_000);
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
    Jdbi jdbi = Jdbi.create(source);
    Handle writerHandle;
    try {
      writerHandle = jdbi.open();
    } catch (RuntimeException e) {
      throw new RoundhouseException(
          "store_unavailable", "cannot open the database " + file + ": " + e.getMessage(), e);
    }
    try {
      return new SqliteStore(jdbi, writerHandle, clock, maxBatch, sink);
    } catch (RuntimeException e) {
      writerHandle.close();
      throw e;
    }
  }

  @Override
  public <T> T read(Function<StoreReader, T> work) {
    Handle handle = borrow();
    boolean healthy = false;
    try {
      T result = handle.inTransaction(h -> work.apply(new SqliteReader(h)));
      healthy = true;
      return result;
    } finally {
      giveBack(handle, healthy);
    }
  }

  @Override
  public <T> T write(Function<StoreWriter, T> work) {
    return writer.submit(work);
  }

  @Override
  public Event append(EventDraft draft) {
    // Serialized here, on the caller's thread: the writer thread is every event's critical path.
    SerializedDraft serialized = SerializedDraft.of(draft);
    return writer.submit(w -> ((SqliteWriter) w).append(serialized), true);
  }

  @Override
  public List<Event> eventsAfter(long after, int limit) {
    return read(reader -> ((SqliteReader) reader).eventsAfter(after, limit));
  }

  @Override
  public List<Event> taskEventsAfter(long task, long after, int limit) {
    return read(reader -> reader.runner().taskEvents(task, after, Long.MAX_VALUE, limit, false));
  }

  @Override
  public long lastSeq() {
    return read(reader -> ((SqliteReader) reader).lastSeq());
  }

  @Override
  public int schemaVersion() {
    return schemaVersion;
  }

  private Handle borrow() {
    if (closed) {
      throw new RoundhouseException("store_closed", "the store is closed");
    }
    Handle idle = idleReaders.poll();
    return idle != null ? idle : readers.open();
  }

  private void giveBack(Handle handle, boolean healthy) {
    if (!healthy || closed || !idleReaders.offer(handle)) {
      handle.close();
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    writer.close();
    eventInserter.close();
    writerHandle.close();
    for (Handle idle; (idle = idleReaders.poll()) != null; ) {
      idle.close();
    }
  }
}
