package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EventsCommandTest {
  private TestHub hub;
  private Context cli;

  @BeforeEach
  void startHubWithSomeHistory() {
    hub = TestHub.start();
    cli = context(hub);
    ok(cli, "project", "add", "web", hub.folder("web"));
    ok(cli, "task", "add", "--project", "web", "First");
    ok(cli, "task", "update", "1", "--status", "todo");
  }

  @AfterEach
  void stopHub() {
    hub.close();
  }

  @Test
  void eventsPrintsTheReplayAsJsonLinesAndExits() {
    CliResult result = ok(cli, "events", "--json");

    List<JsonNode> events = result.out().lines().map(EventsCommandTest::parse).toList();
    assertThat(events).extracting(e -> e.path("type").asText())
        .containsExactly("project.created", "task.created", "task.updated");
    assertThat(events).extracting(e -> e.path("seq").asLong()).containsExactly(1L, 2L, 3L);
  }

  @Test
  void eventsAfterNStartsAfterThatSequenceNumber() {
    CliResult result = ok(cli, "events", "--after", "2", "--json");

    assertThat(result.out().lines().map(EventsCommandTest::parse).map(e -> e.path("seq").asLong()).toList())
        .containsExactly(3L);
    assertThat(ok(cli, "events", "--after", "3").out()).isEmpty();
  }

  @Test
  void eventsAsTextIsOneLinePerEvent() {
    List<String> lines = ok(cli, "events").out().lines().toList();

    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).matches(" +1  \\S+Z +project\\.created +user +project 1 +web");
    assertThat(lines.get(1)).matches(" +2  \\S+Z +task\\.created +user +task 1 +First");
    assertThat(lines.get(2)).matches(" +3  \\S+Z +task\\.updated +user +task 1 +status: backlog → todo");
  }

  @Test
  void aNegativeAfterIsAUsageError() {
    CliResult result = CliResult.run(cli, "events", "--after", "-1");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("--after must be 0 or more, not -1");
  }

  private static JsonNode parse(String line) {
    return Json.read(line, JsonNode.class);
  }
}
