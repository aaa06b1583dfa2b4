package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventSink;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * One writing session on the PostgreSQL database: the hub's database lock (a connection of its own), the
 * writer's connection with its prepared event insert, and the group-committing writer over them. When the
 * server goes away the session is done; the store opens a new one ({@link PostgresStore}).
 *
 * <p>Thread-safe (the {@link GroupCommitWriter} serialises the writes).
 */
final class PostgresWriter implements AutoCloseable {
  private final Connection lock;
  private final Handle handle;
  private final EventInserter inserter;
  final GroupCommitWriter writer;

  private PostgresWriter(Connection lock, Handle handle, EventInserter inserter, GroupCommitWriter writer) {
    this.lock = lock;
    this.handle = handle;
    this.inserter = inserter;
    this.writer = writer;
  }

  /** Takes the database's lock, then opens the writer's connection; {@code migrate} first brings the schema up to date. */
  static PostgresWriter open(DatabaseUrl url, Clock clock, int maxBatch, EventSink sink, boolean migrate) {
    Connection lock = PostgresConnections.lockDatabase(url);
    Handle handle = null;
    try {
      handle = Jdbi.open(PostgresConnections.connect(url, "roundhouse writer"));
      if (migrate) {
        Migrations.migrate(handle, Dialect.POSTGRESQL, Migrations.latest());
      }
      EventInserter inserter = new EventInserter(handle.getConnection(), Dialect.POSTGRESQL);
      Handle writing = handle;
      GroupCommitWriter writer = new GroupCommitWriter(handle, maxBatch, sink,
          events -> new SqlWriter(writing, Dialect.POSTGRESQL, clock, inserter, events), true);
      return new PostgresWriter(lock, handle, inserter, writer);
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

  <T> T submit(Function<StoreWriter, T> work, boolean singleStatement) {
    return writer.submit(work, singleStatement);
  }

  @Override
  public void close() {
    writer.close();
    inserter.close();
    handle.close();
    PostgresConnections.closeQuietly(lock);
  }
}
