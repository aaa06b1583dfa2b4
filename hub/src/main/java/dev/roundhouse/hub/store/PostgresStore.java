package dev.roundhouse.hub.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.events.EventSink;
import dev.roundhouse.hub.model.Compaction;
import dev.roundhouse.hub.model.Worker;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The PostgreSQL store: the same queries as SQLite's (in {@link Dialect#POSTGRESQL}), the same single
 * group-committing writer, and reads on a pool of connections (HikariCP), each in a read-only {@code
 * REPEATABLE READ} transaction so a read sees one snapshot as it does on SQLite.
 *
 * <p>Event sequence numbers come from a counter row updated in the writing transaction ({@link
 * EventInserter}), so with several hub processes writing to one database, events still commit in sequence
 * order with no gaps.
 *
 * <p>Every write waits for the server's commit (with the server's {@code synchronous_commit}, on by default),
 * so "durable" means what the server's configuration says it means.
 *
 * <p>Thread-safe.
 */
final class PostgresStore implements Store {
  /** Readers at once; the writer holds one more connection. */
  static final int READ_POOL = 8;
  /** By name: the driver's classes carry annotations whose types are not on the compile path. */
  private static final String DRIVER = "org.postgresql.Driver";

  /** The advisory lock one hub holds on its database for its whole life (the bytes of "RHHUB"). */
  static final long HUB_LOCK = 0x5248485542L;

  private final Connection hubLock;
  private final HikariDataSource pool;
  private final Jdbi jdbi;
  private final Handle writerHandle;
  private final EventInserter eventInserter;
  private final GroupCommitWriter writer;
  private final int schemaVersion;
  private volatile boolean closed;

  private PostgresStore(Connection hubLock, HikariDataSource pool, Handle writerHandle, Clock clock, int maxBatch,
      EventSink sink) {
    this.hubLock = hubLock;
    this.pool = pool;
    this.jdbi = Jdbi.create(pool);
    this.writerHandle = writerHandle;
    this.schemaVersion = Migrations.migrate(writerHandle, Dialect.POSTGRESQL, Migrations.latest());
    try {
      this.eventInserter = new EventInserter(writerHandle.getConnection(), Dialect.POSTGRESQL);
    } catch (SQLException e) {
      throw new RoundhouseException("store_unavailable", "cannot prepare the event insert: " + e.getMessage(), e);
    }
    this.writer = new GroupCommitWriter(writerHandle, maxBatch, sink,
        events -> new SqlWriter(writerHandle, Dialect.POSTGRESQL, clock, eventInserter, events));
  }

  static PostgresStore open(DatabaseUrl url, Clock clock, int maxBatch, EventSink sink) {
    Connection hubLock = lockDatabase(url);
    try {
      return open(hubLock, url, clock, maxBatch, sink);
    } catch (RuntimeException e) {
      closeQuietly(hubLock);
      throw e;
    }
  }

  private static PostgresStore open(Connection hubLock, DatabaseUrl url, Clock clock, int maxBatch, EventSink sink) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("roundhouse-store");
    config.setDriverClassName(DRIVER);
    config.setJdbcUrl(url.jdbcUrl());
    if (url.user() != null) {
      config.setUsername(url.user());
    }
    if (url.password() != null) {
      config.setPassword(url.password());
    }
    config.setMaximumPoolSize(READ_POOL + 1);
    config.setMinimumIdle(2);
    config.setConnectionTimeout(10_000);
    config.addDataSourceProperty("ApplicationName", "roundhouse");
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw unavailable(url, e);
    }
    try {
      Handle writerHandle = Jdbi.create(pool).open();
      try {
        return new PostgresStore(hubLock, pool, writerHandle, clock, maxBatch, sink);
      } catch (RuntimeException e) {
        writerHandle.close();
        throw e;
      }
    } catch (RoundhouseException e) {
      pool.close();
      throw e;
    } catch (RuntimeException e) {
      pool.close();
      throw unavailable(url, e);
    }
  }

  /**
   * Takes the database for this hub: a session advisory lock on a connection of its own, held until {@link
   * #close()} and dropped by the server when the connection ends (a SIGKILLed hub's too). Until turns are
   * claimed through leases, two hubs on one database would each treat the other's running turns as their
   * own, so a second is refused, as a second hub on one home is.
   */
  private static Connection lockDatabase(DatabaseUrl url) {
    String self = "roundhouse hub pid " + ProcessHandle.current().pid() + " on " + hostName();
    Connection connection;
    try {
      connection = connect(url, self);
    } catch (SQLException | RuntimeException e) {
      throw unavailable(url, e);
    }
    try {
      Handle handle = Jdbi.open(connection);
      boolean locked = handle.createQuery("SELECT pg_try_advisory_lock(:key)").bind("key", HUB_LOCK).mapTo(Boolean.class).one();
      if (!locked) {
        String holder = handle.createQuery("SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                + " WHERE l.locktype = 'advisory' AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = :key")
            .bind("key", HUB_LOCK).mapTo(String.class).findFirst().orElse("a hub that is just stopping");
        throw new RoundhouseException.HomeLocked("another Roundhouse hub is using the database " + url.redacted() + " ("
            + holder + "); one database serves one hub at a time: stop it, or give this hub another database");
      }
      return connection;
    } catch (RuntimeException e) {
      closeQuietly(connection);
      if (e instanceof RoundhouseException known) {
        throw known;
      }
      throw unavailable(url, e);
    }
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "an unnamed host";
    }
  }

  private static Connection connect(DatabaseUrl url, String applicationName) throws SQLException {
    loadDriver();
    Properties properties = new Properties();
    if (url.user() != null) {
      properties.setProperty("user", url.user());
    }
    if (url.password() != null) {
      properties.setProperty("password", url.password());
    }
    properties.setProperty("connectTimeout", "10");
    properties.setProperty("ApplicationName", applicationName);
    return DriverManager.getConnection(url.jdbcUrl(), properties);
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      // closing anyway; the server drops the session's locks with it
    }
  }

  static String describe(DatabaseUrl url) {
    try (Connection connection = connect(url, "roundhouse doctor")) {
      Handle handle = Jdbi.open(connection);
      String server = handle.createQuery("SHOW server_version").mapTo(String.class).one();
      int schema = Migrations.version(handle, Dialect.POSTGRESQL);
      return "PostgreSQL " + server + ", schema version " + (schema == 0 ? "none yet; serve creates it" : schema);
    } catch (SQLException | RuntimeException e) {
      throw unavailable(url, e);
    }
  }

  /** Registers the driver with DriverManager, whatever the jar's service files say. */
  private static void loadDriver() {
    try {
      Class.forName(DRIVER);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("the PostgreSQL driver is missing from the class path", e);
    }
  }

  static List<Worker> workers(DatabaseUrl url) {
    try (Connection connection = connect(url, "roundhouse doctor")) {
      Handle handle = Jdbi.open(connection);
      if (Migrations.version(handle, Dialect.POSTGRESQL) < 6) {
        return List.of();
      }
      handle.begin();
      try {
        return new SqlReader(handle, Dialect.POSTGRESQL).workers();
      } finally {
        handle.rollback();
      }
    } catch (SQLException | RuntimeException e) {
      throw unavailable(url, e);
    }
  }

  private static RoundhouseException unavailable(DatabaseUrl url, Exception e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return new RoundhouseException(
        "store_unavailable", "cannot open the PostgreSQL database " + url.redacted() + ": " + cause.getMessage(), e);
  }

  @Override
  public <T> T read(Function<StoreReader, T> work) {
    if (closed) {
      throw new RoundhouseException("store_closed", "the store is closed");
    }
    try {
      return jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, handle -> {
        handle.execute("SET TRANSACTION READ ONLY");
        return work.apply(new SqlReader(handle, Dialect.POSTGRESQL));
      });
    } catch (RuntimeException e) {
      throw refusedText(e);
    }
  }

  @Override
  public <T> T write(Function<StoreWriter, T> work) {
    try {
      return writer.submit(work);
    } catch (RuntimeException e) {
      throw refusedText(e);
    }
  }

  /**
   * PostgreSQL text cannot hold U+0000 (SQLite's can): the server refuses it as an invalid byte sequence
   * (SQLSTATE 22021). That is the caller's input, so it becomes an {@code invalid_input} naming the character,
   * not an internal error; nothing was written.
   */
  private static RuntimeException refusedText(RuntimeException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && "22021".equals(sql.getSQLState())) {
        return new RoundhouseException.InvalidInput(
            "the text holds a NUL character (U+0000), which the PostgreSQL store cannot keep; remove it and try again");
      }
    }
    return e;
  }

  @Override
  public Event append(EventDraft draft) {
    SerializedDraft serialized = SerializedDraft.of(draft);
    // Not marked single-statement: a failed statement aborts a PostgreSQL transaction, so even a lone insert
    // needs its savepoint for the batch's other writes to commit.
    return writer.submit(w -> ((SqlWriter) w).append(serialized), false);
  }

  @Override
  public List<Event> eventsAfter(long after, int limit) {
    return read(reader -> ((SqlReader) reader).eventsAfter(after, limit));
  }

  @Override
  public List<Event> taskEventsAfter(long task, long after, int limit) {
    return read(reader -> reader.runner().taskEvents(task, after, Long.MAX_VALUE, limit, false));
  }

  @Override
  public long lastSeq() {
    return read(reader -> ((SqlReader) reader).lastSeq());
  }

  @Override
  public StoreStats stats() {
    return writer.stats();
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
    return writer.submitOutsideTransaction(handle -> {
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
    writer.close();
    eventInserter.close();
    writerHandle.close();
    pool.close();
    closeQuietly(hubLock);
  }
}
