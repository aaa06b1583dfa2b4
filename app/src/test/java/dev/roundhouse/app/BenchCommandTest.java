package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run of {@code roundhouse bench}: it reports both modes and their ratio, and cleans up. */
class BenchCommandTest {
  @TempDir Path home;

  @Test
  void reportsBothModesAndTheRatioAndLeavesNothingBehind() throws Exception {
    Path scratch = Files.createDirectories(home.resolve("scratch"));
    CliResult result = ok(context(home, home), "bench", "--producers", "4", "--events", "10", "--dir", scratch.toString());

    assertThat(result.out())
        .containsPattern("(?m)^group commit +40 ")
        .containsPattern("(?m)^one tx per event +40 +40 ")
        .containsPattern("ratio group commit / one tx per event: [0-9.]+x");
    try (var left = Files.list(scratch)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void withADatabaseItMeasuresPostgresqlTooInASchemaItDropsAfterwards() throws Exception {
    PostgresServer.Database database = PostgresServer.shared().newDatabase();
    CliResult result = ok(context(home, home), "bench", "--producers", "4", "--events", "10", "--dir", home.toString(),
        "--database", database.url());

    assertThat(result.out())
        .containsPattern("(?m)^group commit +40 ")
        .containsPattern("(?m)^postgresql group commit +40 ")
        .containsPattern("ratio postgresql / sqlite group commit: [0-9.]+x")
        .contains("several workers on the PostgreSQL database")
        .containsPattern("(?m)^1 +40 +[0-9]+ +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+x$")
        .containsPattern("(?m)^2 +40 ")
        .containsPattern("(?m)^3 +40 ")
        .doesNotContain(database.server().password());
    try (Connection c = database.connect(); ResultSet schemas = c.getMetaData().getSchemas()) {
      List<String> names = new ArrayList<>();
      while (schemas.next()) {
        names.add(schemas.getString(1));
      }
      assertThat(names).noneMatch(name -> name.startsWith("roundhouse_bench_"));
    }
  }

  @Test
  void benchTurnsReportsTheDiskBaselineTheLatencyTheRssAndTheWriter() {
    CliResult result = ok(context(home, home), "bench", "turns", "--turns", "3", "--events", "20", "--warmup", "10");

    assertThat(result.out())
        .containsPattern("baseline, this disk: fdatasync of a 4 KiB append p50 [0-9.]+ ms, p99 [0-9.]+ ms")
        .contains("warm-up, not measured (the JIT compiling, the first collections): 30 events,")
        .contains("60 message events in")
        .containsPattern("emit -> SSE viewer latency: p50 [0-9.]+ ms, p99 [0-9.]+ ms")
        .containsPattern("peak RSS of this process \\(hub and viewer\\): [1-9][0-9]* MB")
        // 60 messages and the turns' other events, in at least one commit
        .containsPattern("store writer, measured round: [1-9][0-9]* commits of [1-9][0-9.]* writes on average, [0-9.]+ ms each")
        .containsPattern("this disk again, after the run: fdatasync of a 4 KiB append p50 [0-9.]+ ms, p99 [0-9.]+ ms");
  }

  @Test
  void benchWorkspaceComparesWithGitOnRepeatedReadsAndOnTheFirstReadOfANewTip() throws Exception {
    CliResult result = ok(context(home, home), "bench", "workspace", "--files", "60", "--changed", "20", "--commits", "40",
        "--behind", "10", "--tasks", "2", "--runs", "3", "--warmup", "1", "--json");

    JsonNode figures = Json.read(result.out(), JsonNode.class);
    assertThat(figures.path("wide").path("agree").asBoolean()).isTrue();
    assertThat(figures.path("wide").path("changed_files").asInt()).isEqualTo(20);
    assertThat(figures.path("wide").path("new_tip").path("rounds").asInt()).isEqualTo(3);
    assertThat(figures.path("wide").path("new_tip").path("ratio").asDouble()).isPositive();
    assertThat(figures.path("deep").path("agree").asBoolean()).isTrue();
    assertThat(figures.path("deep").path("new_tip").isValueNode()).isFalse(); // null or absent: no new tips there
  }

  @Test
  void benchServicesReportsTheHubRunAgainstDevNullAndABareRelay() throws Exception {
    CliResult result = ok(context(home, home), "bench", "services", "--megabytes", "2", "--viewers", "2", "--keystrokes", "10", "--json");

    JsonNode figures = Json.read(result.out(), JsonNode.class);
    assertThat(figures.path("dev_null")).hasSize(2);
    for (String run : List.of("hub", "relay")) {
      assertThat(figures.path(run).path("bytes").asLong()).as(run).isEqualTo(figures.path("dev_null").get(0).path("bytes").asLong());
      assertThat(figures.path(run).path("lines").asLong()).as(run).isPositive();
    }
    assertThat(figures.path("ratio").asDouble()).isPositive();
    assertThat(figures.path("relay_ratio").asDouble()).isPositive();
    assertThat(figures.path("terminal").path("count").asInt()).isEqualTo(10);
  }
}
