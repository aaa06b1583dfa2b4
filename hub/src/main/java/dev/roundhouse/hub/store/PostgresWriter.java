package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventSink;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * One writing session on the PostgreSQL database: the worker's share of the database lock (a connection of
 * its own), the writer's connection with its prepared event insert, and the group-committing writer over
 * them. When the server goes away the session is done; the store opens a new one ({@link PostgresStore}).
 *
 * <p>Several workers write to one database. Each group transaction first locks the event counter row ({@link
 * #TAKE_TURN}), so the workers' transactions run one at a time: a write's checks (is a turn already running
 * for this task?) see every other worker's committed writes, two transactions never wait on each other's rows
 * (no deadlock), and events commit in sequence order. The same statement queues a {@code NOTIFY} that the
 * server delivers to the other workers when the transaction commits ({@link PostgresEventRelay}).
 *
 * <p>Thread-safe (the {@link GroupCommitWriter} serialises the writes).
 */
final class PostgresWriter implements AutoCloseable {
  /** The channel every worker's commits are announced on. */
  static final String CHANNEL = "roundhouse_events";
  static final String TAKE_TURN = "SELECT pg_notify('" + CHANNEL + "', ''), last FROM event_counter FOR UPDATE";

  private final Connection lock;
  private final Handle handle;
  private final EventInserter inserter;
  private final PreparedStatement takeTurn;
  /** The server process of the writer's connection: the sender its own notices carry. */
  final int backendPid;
  final GroupCommitWriter writer;

  private PostgresWriter(Connection lock, Handle handle, EventInserter inserter, PreparedStatement takeTurn, int backendPid,
      GroupCommitWriter writer) {
    this.lock = lock;
    this.handle = handle;
    this.inserter = inserter;
    this.takeTurn = takeTurn;
    this.backendPid = backendPid;
    this.writer = writer;
  }

  /** Joins the database's workers, then opens the writer's connection; {@code migrate} first brings the schema up to date. */
  static PostgresWriter open(DatabaseUrl url, Clock clock, int maxBatch, EventSink sink, boolean migrate) {
    Connection lock = PostgresConnections.joinDatabase(url);
    Handle handle = null;
    try {
      handle = Jdbi.open(PostgresConnections.connect(url, "roundhouse writer"));
      if (migrate) {
        Migrations.migrate(handle, Dialect.POSTGRESQL, Migrations.latest());
      }
      int pid = handle.createQuery("SELECT pg_backend_pid()").mapTo(Integer.class).one();
      EventInserter inserter = new EventInserter(handle.getConnection(), Dialect.POSTGRESQL);
      PreparedStatement takeTurn = handle.getConnection().prepareStatement(TAKE_TURN);
      Handle writing = handle;
      GroupCommitWriter writer = new GroupCommitWriter(handle, maxBatch, sink,
          events -> new SqlWriter(writing, Dialect.POSTGRESQL, clock, inserter, events), true, h -> takeTurn(takeTurn));
      return new PostgresWriter(lock, handle, inserter, takeTurn, pid, writer);
    } catch (SQLException | RuntimeException e) {
      if (handle != null) {
        handle.close();
      }
      PostgresConnections.closeQuietly(lock);
      if (e instanceof RoundhouseException known) {
        throw known;
      }
      throw PostgresConnections.unavailable(url, e);
    }
  }

  private static void takeTurn(PreparedStatement statement) {
    try {
      statement.executeQuery().close();
    } catch (SQLException e) {
      throw new UnableToExecuteStatementException(e, null);
    }
  }

  <T> T submit(Function<StoreWriter, T> work, boolean singleStatement) {
    return writer.submit(work, singleStatement);
  }

  @Override
  public void close() {
    writer.close();
    inserter.close();
    try {
      takeTurn.close();
    } catch (SQLException e) {
      // closing the connection closes it anyway
    }
    handle.close();
    PostgresConnections.closeQuietly(lock);
  }
}
