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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import dev.roundhouse.hub.model.Compaction;

/**
 * The SQLite store: WAL mode, {@code synchronous=FULL} (a commit is on disk when it returns), foreign keys
 * on. One writer connection owned by the {@link GroupCommitWriter}; reads use a small pool of other
 * connections, which WAL lets run alongside the writer.
 *
 * <p>A database file this store creates gets {@code auto_vacuum = INCREMENTAL} before its first table (the
 * setting cannot change later without a full {@code VACUUM}), so {@link #compact()} can hand pages freed by
 * pruning back to the file system; a file made before that is switched over by the first compaction, with
 * one full {@code VACUUM}.
 *
 * <p>Thread-safe.
 */
final class SqliteStore extends SqlStore {
  private static final int READ_POOL = 4;

  private final Jdbi readers;
  private final BlockingQueue<Handle> idleReaders = new ArrayBlockingQueue<>(READ_POOL);
  private final Handle writerHandle;
  private final EventInserter eventInserter;
  private final GroupCommitWriter writer;
  private final int schemaVersion;
  private final Path file;
  private volatile boolean closed;

  private SqliteStore(Path file, Jdbi readers, Handle writerHandle, Clock clock, int maxBatch, EventSink sink) {
    this.file = file;
    this.readers = readers;
    this.writerHandle = writerHandle;
    incrementalVacuumWhenNew(writerHandle);
    this.schemaVersion = Migrations.migrate(writerHandle);
    try {
      this.eventInserter = new EventInserter(writerHandle.getConnection(), Dialect.SQLITE);
    } catch (SQLException e) {
      throw new RoundhouseException("store_unavailable", "cannot prepare the event insert: " + e.getMessage(), e);
    }
    this.writer =
        new GroupCommitWriter(
            writerHandle,
            maxBatch,
            sink,
            events -> new SqlWriter(writerHandle, Dialect.SQLITE, clock, eventInserter, events));
  }

  static SqliteStore open(Path file, Clock clock, int maxBatch, EventSink sink) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the folder for " + file, e);
    }
    SqliteNativeCopy.prepare(file.toAbsolutePath().getParent().resolve("native"));
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
      return new SqliteStore(file.toAbsolutePath(), jdbi, writerHandle, clock, maxBatch, sink);
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
      T result = handle.inTransaction(h -> work.apply(new SqlReader(h, Dialect.SQLITE)));
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
    return writer.submit(w -> ((SqlWriter) w).append(serialized), true);
  }

  @Override
  public StoreStats stats() {
    return writer.stats();
  }

  @Override
  public String backend() {
    return "sqlite";
  }

  @Override
  public int schemaVersion() {
    return schemaVersion;
  }

  /**
   * A new, empty database gets incremental vacuum before its first table. Opening it in WAL mode already wrote
   * its header, so the pragma takes effect through a VACUUM, which costs nothing on an empty file.
   */
  private static void incrementalVacuumWhenNew(Handle handle) {
    int tables = handle.createQuery("SELECT count(*) FROM sqlite_master").mapTo(Integer.class).one();
    if (tables == 0 && Migrations.version(handle) == 0) {
      handle.execute("PRAGMA auto_vacuum = INCREMENTAL");
      handle.execute("VACUUM");
    }
  }

  @Override
  public Compaction compact() {
    return writer.submitOutsideTransaction(handle -> {
      checkpoint(handle);
      long before = fileSize();
      int mode = handle.createQuery("PRAGMA auto_vacuum").mapTo(Integer.class).one();
      boolean full = mode == 0;
      if (full) {
        // Takes effect only through a full VACUUM, which rewrites the file once (and needs as much free disk).
        handle.execute("PRAGMA auto_vacuum = INCREMENTAL");
        handle.execute("VACUUM");
      } else if (mode == 2) {
        incrementalVacuum(handle);
      }
      checkpoint(handle);
      return new Compaction(before, fileSize(), full);
    });
  }

  /**
   * Frees every free page, in one transaction. The pragma frees one page per step and reports no columns, so
   * JDBC runs one step per execute: it is stepped once per free page, then finalized before the commit.
   */
  private static void incrementalVacuum(Handle handle) {
    handle.begin();
    boolean committed = false;
    try {
      long free = freePages(handle);
      try (PreparedStatement step = handle.getConnection().prepareStatement("PRAGMA incremental_vacuum")) {
        for (long page = 0; page < free; page++) {
          step.execute();
        }
      }
      handle.commit();
      committed = true;
    } catch (SQLException e) {
      throw new RoundhouseException("store_error", "incremental vacuum failed: " + e.getMessage(), e);
    } finally {
      if (!committed) {
        handle.rollback();
      }
    }
  }

  private static long freePages(Handle handle) {
    return handle.createQuery("PRAGMA freelist_count").mapTo(Long.class).one();
  }

  /** Copies the WAL into the database file and truncates it, so the file's size is what is stored. */
  private static void checkpoint(Handle handle) {
    try (Statement statement = handle.getConnection().createStatement();
        ResultSet rows = statement.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
      while (rows.next()) {
        // one row: busy, log frames, checkpointed frames; a busy reader leaves the WAL for the next time
      }
    } catch (SQLException e) {
      throw new RoundhouseException("store_error", "WAL checkpoint failed: " + e.getMessage(), e);
    }
  }

  private long fileSize() {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the size of " + file, e);
    }
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
