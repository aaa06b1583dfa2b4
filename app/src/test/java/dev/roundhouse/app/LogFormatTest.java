package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ROUNDHOUSE_LOG_FORMAT} and {@code ROUNDHOUSE_LOG_LEVEL} on a real {@code serve} process: JSON logs are one
 * object per line (the start banner stays the one text line tools read), the level filters, and a value the
 * variables do not take is a usage error naming the variable, before anything starts.
 */
@ExtendWith(NoLeakedProcesses.class)
class LogFormatTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path home;

  private String serveAndStop(Map<String, String> env) {
    ProcessBuilder builder = RoundhouseProcess.builder(home, List.of(), "serve", "--port", "0");
    builder.environment().putAll(env);
    try (RoundhouseProcess hub = RoundhouseProcess.start(builder)) {
      hub.awaitErrLine(line -> line.startsWith("roundhouse ") && line.contains(" listening on "), WAIT);
      hub.terminate();
      assertThat(hub.awaitExit(WAIT)).as("exit after SIGTERM; stderr:\n%s", hub.err()).isZero();
      return hub.err();
    }
  }

  @Test
  void jsonLogsAreOneObjectPerLineBesideTheStartBanner() {
    String err = serveAndStop(Map.of("ROUNDHOUSE_LOG_FORMAT", "json"));

    List<JsonNode> events = new ArrayList<>();
    for (String line : err.split("\n")) {
      if (line.startsWith("roundhouse ") && line.contains(" listening on ") || line.startsWith("WARNING: ")) {
        continue; // the banner, and the JVM's own warnings (the launcher's options silence them)
      }
      assertThat(line).as("a stderr line that is not the banner; stderr:\n%s", err).startsWith("{");
      events.add(Json.read(line, JsonNode.class));
    }
    assertThat(events).allSatisfy(event -> {
      assertThat(event.path("timestamp").isNumber()).as("%s", event).isTrue();
      assertThat(event.path("level").asText()).as("%s", event).isIn("INFO", "WARN", "ERROR");
      assertThat(event.path("loggerName").asText()).as("%s", event).isNotEmpty();
    });
    assertThat(events).anySatisfy(event -> {
      assertThat(event.path("loggerName").asText()).isEqualTo(ServeCommand.class.getName());
      assertThat(event.path("formattedMessage").asText()).isEqualTo("stopping on SIGTERM");
    });
  }

  @Test
  void theLevelFiltersTextLogsAndTheDefaultStaysText() {
    String quiet = serveAndStop(Map.of("ROUNDHOUSE_LOG_LEVEL", "warn"));
    assertThat(quiet).contains(" listening on ").doesNotContain(" INFO ").doesNotContain("stopping on SIGTERM");

    String plain = serveAndStop(Map.of());
    assertThat(plain).contains(" INFO ServeCommand - stopping on SIGTERM").doesNotContain("{\"").doesNotContain("SLF4J");
  }

  @Test
  void aValueTheVariablesDoNotTakeIsAUsageErrorNamingTheVariable() {
    for (Map.Entry<String, String> bad : Map.of("ROUNDHOUSE_LOG_FORMAT", "xml", "ROUNDHOUSE_LOG_LEVEL", "loud").entrySet()) {
      ProcessBuilder builder = RoundhouseProcess.builder(home, List.of(), "serve", "--port", "0");
      builder.environment().put(bad.getKey(), bad.getValue());
      try (RoundhouseProcess process = RoundhouseProcess.start(builder)) {
        assertThat(process.awaitExit(WAIT)).isEqualTo(ExitCode.USAGE.status());
        assertThat(process.err()).startsWith("roundhouse: " + bad.getKey() + " must be ").contains("'" + bad.getValue() + "'");
      }
    }
  }
}
