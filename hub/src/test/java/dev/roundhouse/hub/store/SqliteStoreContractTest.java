package dev.roundhouse.hub.store;

import dev.roundhouse.hub.events.EventSink;
import dev.roundhouse.hub.testing.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on SQLite: a real database file. */
class SqliteStoreContractTest extends StoreContract {
  @TempDir Path dir;

  @Override
  Store openNew(ManualClock clock, EventSink sink) {
    return reopen(clock, sink);
  }

  @Override
  Store reopen(ManualClock clock, EventSink sink) {
    return Store.sqlite(dir.resolve("roundhouse.db"), clock, 64, sink);
  }

  @Override
  String backend() {
    return "sqlite";
  }
}
