package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Versioned, forward-only schema migrations. Version N is the N-th script below; the database's {@code
 * PRAGMA user_version} says which have run. Each script runs in its own transaction together with the
 * version bump, so a crash mid-migration leaves the previous version intact.
 *
 * <p>Add a migration by appending a script; never edit one that has shipped.
 */
final class Migrations {
  static final List<String> SCRIPTS =
      List.of("V1__core.sql", "V2__tags_and_edits.sql", "V3__turns_and_decisions.sql", "V4__extension_records.sql",
          "V5__schedules_and_runs.sql");

  private Migrations() {}

  static int latest() {
    return SCRIPTS.size();
  }

  static int version(Handle handle) {
    return handle.createQuery("PRAGMA user_version").mapTo(Integer.class).one();
  }

  /** Migrates to the latest version. */
  static int migrate(Handle handle) {
    return migrate(handle, latest());
  }

  /** Migrates up to {@code target}; refuses a database newer than this build knows. */
  static int migrate(Handle handle, int target) {
    int current = version(handle);
    if (current > latest()) {
      throw new RoundhouseException(
          "schema_too_new",
          "the database is at schema version "
              + current
              + " but this Roundhouse knows versions up to "
              + latest()
              + ": run a newer Roundhouse");
    }
    for (int next = current + 1; next <= target; next++) {
      String script = load(SCRIPTS.get(next - 1));
      int version = next;
      handle.useTransaction(
          tx -> {
            tx.createScript(script).execute();
            tx.execute("PRAGMA user_version = " + version);
          });
    }
    return version(handle);
  }

  private static String load(String name) {
    try (InputStream in = Migrations.class.getResourceAsStream("migrations/" + name)) {
      if (in == null) {
        throw new IllegalStateException("migration script missing from the jar: " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
