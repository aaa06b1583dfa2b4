package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny run of {@code roundhouse bench scheduler}: every figure is there and sane, and every due firing started
 * exactly once. No timing thresholds: the figures are the benchmark's to report, not a test's to judge.
 */
class BenchSchedulerCommandTest {
  @TempDir Path home;

  @Test
  void everyDueFiringStartsExactlyOnceAndEveryFigureIsReported() {
    CliResult result = ok(context(home, home), "bench", "scheduler", "--schedules", "50", "--due", "10", "--ticks", "20",
        "--idle-firings", "2", "--json");
    JsonNode figures = Json.read(result.out(), JsonNode.class);

    assertThat(figures.get("schedules").asInt()).isEqualTo(50);
    assertThat(figures.get("due").asInt()).isEqualTo(10);
    assertThat(figures.get("due_fired").asInt()).isEqualTo(10);
    assertThat(figures.get("due_launched").asInt()).isEqualTo(10);
    assertThat(figures.get("due_started_once").asInt()).isEqualTo(10);
    assertThat(figures.get("due_started_twice").asInt()).isZero();
    assertThat(figures.get("due_ended").asInt()).isEqualTo(10);
    for (String tick : new String[] {"empty_tick", "full_tick"}) {
      assertThat(figures.get(tick).get("count").asInt()).as(tick).isEqualTo(20);
      assertThat(figures.get(tick).get("p50_millis").asDouble()).as(tick).isPositive();
      assertThat(figures.get(tick).get("p99_millis").asDouble()).as(tick).isGreaterThanOrEqualTo(figures.get(tick).get("p50_millis").asDouble());
    }
    assertThat(figures.get("idle_lag").get("count").asInt()).isEqualTo(2);
    assertThat(figures.get("single_lag").get("count").asInt()).isEqualTo(1);
    for (String lag : new String[] {"idle_lag", "single_lag", "due_claimed", "due_lag", "due_published"}) {
      JsonNode spread = figures.get(lag);
      assertThat(spread.get("p50_millis").asDouble()).as(lag).isGreaterThanOrEqualTo(0);
      assertThat(spread.get("max_millis").asDouble()).as(lag).isGreaterThanOrEqualTo(spread.get("p99_millis").asDouble());
    }
    assertThat(figures.get("due_lag").get("count").asInt()).isEqualTo(10);
    // A firing is claimed before its turn starts, and the start is recorded before it is published.
    assertThat(figures.get("due_lag").get("p50_millis").asDouble()).isGreaterThanOrEqualTo(figures.get("due_claimed").get("p50_millis").asDouble());
    assertThat(figures.get("due_published").get("max_millis").asDouble()).isGreaterThanOrEqualTo(figures.get("due_lag").get("max_millis").asDouble() - 1);
    assertThat(figures.get("heap_empty_megabytes").asDouble()).isPositive();
    assertThat(figures.get("heap_full_megabytes").asDouble()).isPositive();
    assertThat(figures.get("database_megabytes").asDouble()).isPositive();
    assertThat(figures.get("create_seconds").asDouble()).isPositive();
  }

  @Test
  void textNamesEachFigureAndItsBaseline() {
    CliResult result = ok(context(home, home), "bench", "scheduler", "--schedules", "12", "--due", "3", "--ticks", "5",
        "--idle-firings", "1");

    assertThat(result.out())
        .containsPattern("baseline, an idle hub on its own timer \\(1 firings, one schedule due at a time\\)")
        .containsPattern("tick, nothing due \\(5 ticks\\): 0 schedules p50 [0-9.]+ ms, p99 [0-9.]+ ms; 12 schedules p50")
        .containsPattern("heap after GC: 0 schedules [0-9.]+ MB, 12 schedules [0-9.]+ MB")
        .containsPattern("3 firings due in the same minute, one tick \\(began [0-9.]+ ms after due\\): [0-9.]+ ms, fired 3, launched 3")
        .containsPattern("ratio lag / idle hub's lag: [0-9.]+x \\(p50\\)")
        .contains("every due firing started exactly once: 3 of 3 (0 started more than once)");
  }
}
