package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.DatabaseUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventSink;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.PostgresServer;
import org.junit.jupiter.api.Test;

/** The store contract on PostgreSQL: a real server ({@link PostgresServer}), a new database per test. */
class PostgresStoreContractTest extends StoreContract {
  private PostgresServer.Database database;

  @Override
  Store openNew(ManualClock clock, EventSink sink) {
    database = PostgresServer.shared().newDatabase();
    return reopen(clock, sink);
  }

  @Override
  Store reopen(ManualClock clock, EventSink sink) {
    return Store.postgres(database.databaseUrl(), clock, 64, sink);
  }

  @Override
  String backend() {
    return "postgresql";
  }

  @Test
  void aSecondStoreOnTheSameDatabaseIsRefusedNamingTheHubThatHasIt() {
    assertThatThrownBy(() -> reopen(clock, sink))
        .isInstanceOf(RoundhouseException.HomeLocked.class)
        .hasMessageContaining("another Roundhouse hub is using the database " + database.urlWithoutPassword())
        .hasMessageContaining("roundhouse hub pid " + ProcessHandle.current().pid())
        .hasMessageNotContaining(database.server().password());
    assertThat(store.read(StoreReader::projects)).isEmpty();
  }

  @Test
  void aWrongPasswordIsNamedWithoutShowingIt() {
    var wrong = new DatabaseUrl(database.databaseUrl().jdbcUrl(), PostgresServer.USER, "wrong-password");
    assertThatThrownBy(() -> Store.postgres(wrong, clock, 64, sink))
        .hasMessageContaining("cannot open the PostgreSQL database")
        .hasMessageContaining("password authentication failed")
        .hasMessageNotContaining("wrong-password");
  }
}
