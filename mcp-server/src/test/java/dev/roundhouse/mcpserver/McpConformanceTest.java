package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.NodeProject;
import dev.roundhouse.hub.testing.TestHub;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP conformance suite ({@code @modelcontextprotocol/conformance} 0.1.16 on Node 22, from
 * {@code src/test/clients}) against {@code /mcp} of a real hub on a free loopback port. The hub serves the
 * suite's fixed-name fixtures ({@link ConformanceFixtures}) beside its own tools, with the bearer check
 * off, as the suite sends no token: both only through the package-private {@link McpOptions}.
 */
class McpConformanceTest {
  private static final Duration SUITE_TIMEOUT = Duration.ofMinutes(5);
  private static final Pattern RUNNING = Pattern.compile("Running active suite \\((\\d+) scenarios\\)");
  private static final Pattern SCENARIO = Pattern.compile("(?m)^([✓✗]) (\\S+): (\\d+) passed, (\\d+) failed");
  private static final Pattern TOTAL = Pattern.compile("(?m)^Total: (\\d+) passed, (\\d+) failed");

  @TempDir Path results;

  @Test
  void everyScenarioOfTheActiveSuitePasses() {
    RealClients clients = RealClients.installed();
    try (TestHub hub = TestHub.withMounts(config -> config, h -> List.of(McpServers.streamableHttp(h, ConformanceFixtures.options())))) {
      NodeProject.Result suite = clients.run(
          List.of(clients.node().toString(), clients.bin("conformance").toString(), "server",
              "--url", hub.server().url() + McpServers.PATH, "--suite", "active", "--output-dir", results.toString()),
          Map.of(), SUITE_TIMEOUT);
      System.out.println(suite.output());

      assertThat(suite.exit()).as("the suite's exit status; its output:\n" + suite.output()).isZero();
      Matcher running = RUNNING.matcher(suite.output());
      assertThat(running.find()).as(suite.output()).isTrue();
      int scenarios = Integer.parseInt(running.group(1));
      assertThat(scenarios).as("the active suite of 0.1.16 has 30 scenarios").isEqualTo(30);

      Matcher scenario = SCENARIO.matcher(suite.output());
      int passedScenarios = 0;
      while (scenario.find()) {
        assertThat(scenario.group(1)).as(scenario.group()).isEqualTo("✓");
        assertThat(Integer.parseInt(scenario.group(3))).as(scenario.group()).isPositive();
        passedScenarios++;
      }
      assertThat(passedScenarios).as("scenarios in the summary").isEqualTo(scenarios);

      Matcher total = TOTAL.matcher(suite.output());
      assertThat(total.find()).as(suite.output()).isTrue();
      assertThat(Integer.parseInt(total.group(2))).as("failed checks").isZero();
      int passedChecks = Integer.parseInt(total.group(1));
      assertThat(passedChecks).as("passed checks").isGreaterThanOrEqualTo(scenarios);
      assertThat(savedStatuses()).as("every check the suite saved, by status (no failure, no warning)")
          .containsOnlyKeys("SUCCESS").containsEntry("SUCCESS", (long) passedChecks);
    }
  }

  /** How many checks of each status the suite saved, over every scenario's {@code checks.json}. */
  private Map<String, Long> savedStatuses() {
    try (Stream<Path> files = Files.walk(results)) {
      return files.filter(file -> file.getFileName().toString().equals("checks.json"))
          .flatMap(file -> {
            try {
              return StreamSupport.stream(Json.mapper().readTree(file.toFile()).spliterator(), false);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          })
          .collect(Collectors.groupingBy(check -> check.path("status").asText(), TreeMap::new, Collectors.counting()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
