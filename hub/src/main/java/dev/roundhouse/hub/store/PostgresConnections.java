package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.DatabaseUrl;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.roundhouse.hub.core.HostName;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Worker;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * How the PostgreSQL store reaches its server: single connections (the hub's lock, the writer, {@code
 * doctor}), the readers' pool, the database lock one hub holds, and the errors that mean the connection, not
 * the request, failed. Stateless.
 */
final class PostgresConnections {
  /** Readers at once; the writer and the lock hold a connection each beside them. */
  static final int READ_POOL = 8;
  /** The advisory lock hub workers share on their database, and a store copy takes whole (the bytes of "RHHUB"). */
  static final long HUB_LOCK = 0x5248485542L;
  /** By name: the driver's classes carry annotations whose types are not on the compile path. */
  private static final String DRIVER = "org.postgresql.Driver";

  private PostgresConnections() {}

  static Connection connect(DatabaseUrl url, String applicationName) throws SQLException {
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

  /** The readers' pool; Hikari checks a connection that sat idle before lending it, so a restarted server costs nothing. */
  static HikariDataSource readerPool(DatabaseUrl url) {
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
    config.setMaximumPoolSize(READ_POOL);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(10_000);
    config.addDataSourceProperty("ApplicationName", "roundhouse reader");
    try {
      return new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw unavailable(url, e);
    }
  }

  /**
   * Joins the database's workers: a shared hold of the database lock, on a connection of its own, held until
   * it is closed and dropped by the server when the connection ends (a SIGKILLed hub's too, or a server
   * restart). Any number of workers share it; a {@code store copy} into the database takes it whole ({@link
   * #lockDatabase}), so neither starts while the other runs.
   */
  static Connection joinDatabase(DatabaseUrl url) {
    return hold(url, "pg_try_advisory_lock_shared", "roundhouse hub pid " + ProcessHandle.current().pid() + " on " + HostName.local(),
        "a store copy into it is under way; wait for it to end");
  }

  /**
   * Takes the database whole (for {@code store copy}), refused while any hub worker uses it: a session
   * advisory lock on a connection of its own, released when it is closed.
   */
  static Connection lockDatabase(DatabaseUrl url) {
    return hold(url, "pg_try_advisory_lock", "roundhouse store copy pid " + ProcessHandle.current().pid() + " on " + HostName.local(),
        "stop every hub using it first");
  }

  private static Connection hold(DatabaseUrl url, String function, String self, String advice) {
    Connection connection;
    try {
      connection = connect(url, self);
    } catch (SQLException | RuntimeException e) {
      throw unavailable(url, e);
    }
    try {
      Handle handle = Jdbi.open(connection);
      boolean locked = handle.createQuery("SELECT " + function + "(:key)").bind("key", HUB_LOCK).mapTo(Boolean.class).one();
      if (!locked) {
        String holder = handle.createQuery("SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                + " WHERE l.locktype = 'advisory' AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = :key")
            .bind("key", HUB_LOCK).mapTo(String.class).findFirst().orElse("a process that is just stopping");
        throw new RoundhouseException.HomeLocked("the database " + url.redacted() + " is in use (" + holder + "); " + advice);
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

  /**
   * Whether {@code failure} says the connection is gone rather than the request wrong: SQLSTATE class 08
   * (connection exception) or the server shutting down or restarting (57P01, 57P02, 57P03).
   */
  static boolean connectionLost(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
          return true;
        }
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  static RoundhouseException unavailable(DatabaseUrl url, Exception e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return new RoundhouseException(
        "store_unavailable", "cannot open the PostgreSQL database " + url.redacted() + ": " + cause.getMessage(), e);
  }

  static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      // closing anyway; the server drops the session's locks with it
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
}
