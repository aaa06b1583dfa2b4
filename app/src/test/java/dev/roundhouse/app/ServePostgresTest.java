package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve} on the PostgreSQL store, as real processes against a real server. */
@ExtendWith(NoLeakedProcesses.class)
class ServePostgresTest {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration RUN = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void whatOneHubWroteIsThereForTheNextHubOnAnotherHomeAndThePasswordIsNeverShown() throws IOException {
    PostgresServer.Database database = PostgresServer.shared().newDatabase();
    String password = database.server().password();
    Path first = dir.resolve("first");
    Path repo = Files.createDirectories(dir.resolve("repos/web"));

    ProcessBuilder serve = RoundhouseProcess.builder(first, List.of(), "serve", "--port", "0", "--database",
        database.urlWithoutPassword());
    serve.environment().put("ROUNDHOUSE_DATABASE_PASSWORD", password);
    try (RoundhouseProcess hub = RoundhouseProcess.start(serve)) {
      String listening = hub.awaitErrLine(l -> l.startsWith("roundhouse ") && l.contains(" listening on "), START);
      assertThat(listening).contains("store postgresql " + database.urlWithoutPassword());
      assertThat(RoundhouseProcess.run(first, RUN, "project", "add", "web", repo.toString()).exit()).isZero();
      CliResult task = RoundhouseProcess.run(first, RUN, "task", "add", "--project", "web", "Kept", "in", "PostgreSQL");
      assertThat(task.exit()).as("%s", task).isZero();
      hub.terminate();
      assertThat(hub.awaitExit(RUN)).isZero();
      assertThat(hub.err()).doesNotContain(password);
    }

    Path second = dir.resolve("second");
    ProcessBuilder again = RoundhouseProcess.builder(second, List.of(), "serve", "--port", "0");
    again.environment().put("ROUNDHOUSE_DATABASE_URL", database.url());
    try (RoundhouseProcess hub = RoundhouseProcess.start(again)) {
      hub.awaitErrLine(l -> l.startsWith("roundhouse ") && l.contains(" listening on "), START);
      CliResult list = RoundhouseProcess.run(second, RUN, "task", "list", "--json");
      assertThat(list.exit()).as("%s", list).isZero();
      assertThat(list.json().path("tasks").get(0).path("title").asText()).isEqualTo("Kept in PostgreSQL");
      assertThat(Files.exists(second.resolve("roundhouse.db"))).as("no SQLite file in the home").isFalse();

      ProcessBuilder doctor = RoundhouseProcess.builder(second, List.of(), "doctor");
      doctor.environment().put("ROUNDHOUSE_DATABASE_URL", database.url());
      try (RoundhouseProcess check = RoundhouseProcess.start(doctor)) {
        check.awaitExit(RUN);
        assertThat(check.out()).containsPattern("(?m)^ok +workers +pid " + hub.pid() + " on \\S+ at http://127\\.0\\.0\\.1:[0-9]+,"
            + " heartbeat [0-9]+ s ago$");
        assertThat(check.out()).containsPattern("database +postgresql " + database.urlWithoutPassword().replace(".", "\\.")
            + " \\(PostgreSQL [0-9.]+.*, schema version 7\\)");
        assertThat(check.out() + check.err()).doesNotContain(password);
      }
      hub.terminate();
      assertThat(hub.awaitExit(RUN)).isZero();
    }
  }

  @Test
  void twoHubsShareTheDatabaseAndDoctorListsBothAndAKilledOneLeavesTheOtherServing() {
    PostgresServer.Database database = PostgresServer.shared().newDatabase();
    Path repo = dir.resolve("repos/api");
    try (RoundhouseProcess first = serve(dir.resolve("a"), database); RoundhouseProcess second = serve(dir.resolve("b"), database)) {
      first.awaitErrLine(l -> l.startsWith("roundhouse ") && l.contains(" listening on "), START);
      second.awaitErrLine(l -> l.startsWith("roundhouse ") && l.contains(" listening on "), START);
      assertThat(RoundhouseProcess.run(dir.resolve("a"), RUN, "project", "add", "api", Files.createDirectories(repo).toString()).exit())
          .isZero();
      assertThat(RoundhouseProcess.run(dir.resolve("a"), RUN, "task", "add", "--project", "api", "Written", "at", "a").exit()).isZero();
      CliResult listed = RoundhouseProcess.run(dir.resolve("b"), RUN, "task", "list", "--project", "api");
      assertThat(listed.out()).as("%s", listed).contains("Written at a");
      ProcessBuilder doctor = RoundhouseProcess.builder(dir.resolve("b"), List.of(), "doctor");
      doctor.environment().put("ROUNDHOUSE_DATABASE_URL", database.url());
      try (RoundhouseProcess check = RoundhouseProcess.start(doctor)) {
        check.awaitExit(RUN);
        assertThat(check.out()).contains("pid " + first.pid() + " on ", "pid " + second.pid() + " on ");
      }
      first.kill();
      assertThat(first.awaitExit(RUN)).isEqualTo(137);
      assertThat(RoundhouseProcess.run(dir.resolve("b"), RUN, "task", "add", "--project", "api", "After", "the", "kill").exit())
          .isZero();
      second.terminate();
      assertThat(second.awaitExit(RUN)).isZero();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void storeCopyMovesAHomesSqliteDatabaseIntoPostgresqlOnceTheHubHasStopped() throws IOException {
    PostgresServer.Database database = PostgresServer.shared().newDatabase();
    Path home = dir.resolve("sqlite-home");
    Path repo = Files.createDirectories(dir.resolve("repos/api"));
    try (RoundhouseProcess hub = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      hub.awaitErrLine(l -> l.startsWith("roundhouse ") && l.contains(" listening on "), START);
      assertThat(RoundhouseProcess.run(home, RUN, "project", "add", "api", repo.toString()).exit()).isZero();
      assertThat(RoundhouseProcess.run(home, RUN, "task", "add", "--project", "api", "Moved", "over").exit()).isZero();
      CliResult refused = RoundhouseProcess.run(home, RUN, "store", "copy", "--to", database.url());
      assertThat(refused.exit()).isEqualTo(1);
      assertThat(refused.err()).contains("another Roundhouse hub is using " + home);
      hub.terminate();
      assertThat(hub.awaitExit(RUN)).isZero();
    }

    CliResult copy = RoundhouseProcess.run(home, RUN, "store", "copy", "--to", database.url());
    assertThat(copy.exit()).as("%s", copy).isZero();
    assertThat(copy.out()).containsPattern("(?m)^tasks +1$").containsPattern("(?m)^projects +1$")
        .contains("serve from it with ROUNDHOUSE_DATABASE_URL=" + database.urlWithoutPassword())
        .doesNotContain(database.server().password());

    try (RoundhouseProcess hub = serve(dir.resolve("team"), database)) {
      hub.awaitErrLine(l -> l.startsWith("roundhouse ") && l.contains(" listening on "), START);
      CliResult list = RoundhouseProcess.run(dir.resolve("team"), RUN, "task", "list", "--json");
      assertThat(list.json().path("tasks").get(0).path("title").asText()).isEqualTo("Moved over");
      hub.terminate();
      assertThat(hub.awaitExit(RUN)).isZero();
    }
  }

  private static RoundhouseProcess serve(Path home, PostgresServer.Database database) {
    ProcessBuilder serve = RoundhouseProcess.builder(home, List.of(), "serve", "--port", "0");
    serve.environment().put("ROUNDHOUSE_DATABASE_URL", database.url());
    return RoundhouseProcess.start(serve);
  }

  @Test
  void aWrongPasswordStopsTheStartNamingTheDatabaseButNotThePassword() {
    PostgresServer.Database database = PostgresServer.shared().newDatabase();
    ProcessBuilder serve = RoundhouseProcess.builder(dir.resolve("home"), List.of(), "serve", "--port", "0");
    serve.environment().put("ROUNDHOUSE_DATABASE_URL", database.urlWithoutPassword());
    serve.environment().put("ROUNDHOUSE_DATABASE_PASSWORD", "not-the-password");
    try (RoundhouseProcess hub = RoundhouseProcess.start(serve)) {
      assertThat(hub.awaitExit(RUN)).isEqualTo(5);
      assertThat(hub.err()).contains("cannot open the PostgreSQL database " + database.urlWithoutPassword())
          .contains("password authentication failed")
          .doesNotContain("not-the-password")
          .doesNotContain("listening on");
    }
  }
}
