package dev.roundhouse.hub.turns;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.HttpTestClient.Reply;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MCP servers a face gives a turn ({@code turn_start.mcpServers}, an ACP client's): they reach the
 * driver, the turns of the task's queued messages inherit them, the transcript names them without their env
 * or headers, and a bad list is refused naming the server.
 */
class TurnMcpServersTest {
  private static final String TOKEN = "env-secret-4711";
  private static final String HEADER = "Bearer header-secret-0815";

  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch firstRunning = new CountDownLatch(1);
  private TestDriver driver;
  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;
  private long task;

  @BeforeEach
  void start() {
    driver = new TestDriver("echo", false, (request, context) -> {
      if (request.message().equals("first")) {
        firstRunning.countDown();
        assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
      }
    });
    hub = TestHub.withDrivers(c -> c, List.of(driver));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", "echo"));
    task = http.op("task_create", map("project", "web", "title", "Use the notes")).get("id").asLong();
  }

  @AfterEach
  void stop() {
    release.countDown();
    events.close();
    hub.close();
  }

  private static List<Object> servers() {
    return List.of(
        map("name", "notes", "command", "node", "args", List.of("notes.mjs"), "env", map("NOTES_TOKEN", TOKEN)),
        map("name", "docs", "url", "http://127.0.0.1:9/mcp", "headers", map("Authorization", HEADER)));
  }

  @Test
  void aFacesServersReachTheDriverAndTheQueuedTurnsAndOnlyTheirNamesAreStored() throws Exception {
    http.op("turn_start", map("task", task, "message", "first", "mcp_servers", servers()));
    assertThat(firstRunning.await(30, TimeUnit.SECONDS)).isTrue();
    http.op("turn_send", map("task", task, "message", "second"));
    release.countDown();
    events.await("the second turn's end", Duration.ofSeconds(90),
        event -> event.type().equals("turn.ended") && driver.requests.size() == 2
            && event.data().path("turn").asLong() == driver.requests.get(1).turnId());

    List<McpServerSpec> expected = List.of(
        McpServerSpec.stdio("notes", "node", List.of("notes.mjs"), Map.of("NOTES_TOKEN", TOKEN)),
        McpServerSpec.http("docs", "http://127.0.0.1:9/mcp", Map.of("Authorization", HEADER)));
    assertThat(driver.requests.get(0).mcpServers()).isEqualTo(expected);
    assertThat(driver.requests.get(1).mcpServers()).as("the queued message's turn inherits them").isEqualTo(expected);

    JsonNode transcript = http.op("task_transcript", map("task", task));
    List<JsonNode> started = new ArrayList<>();
    transcript.get("entries").forEach(entry -> {
      if (entry.get("type").asText().equals("turn.started")) {
        started.add(entry.get("data"));
      }
    });
    assertThat(started).hasSize(2);
    assertThat(started.getFirst().get("mcp_servers")).hasToString(
        "[{\"name\":\"notes\",\"transport\":\"stdio\"},{\"name\":\"docs\",\"transport\":\"http\"}]");
    assertThat(Json.write(transcript)).doesNotContain(TOKEN).doesNotContain("header-secret");
    assertThat(expected.toString()).doesNotContain(TOKEN).doesNotContain("header-secret");
  }

  @Test
  void aTurnWithoutServersSaysNothingOfThem() {
    release.countDown();
    http.op("turn_start", map("task", task, "message", "hello"));
    assertThat(events.await("turn.started", task).data().has("mcp_servers")).isFalse();
    events.await("turn.ended", task);
    assertThat(driver.requests).hasSize(1);
    assertThat(driver.requests.getFirst().mcpServers()).isEmpty();
  }

  @Test
  void aBadListIsRefusedNamingTheServer() {
    Reply twice = turnStart(List.of(map("name", "notes", "command", "a"), map("name", "notes", "command", "b")));
    assertThat(twice.status()).isEqualTo(400);
    assertThat(twice.errorMessage()).contains("two MCP servers are named 'notes'");

    Reply hubs = turnStart(List.of(map("name", "roundhouse", "command", "a")));
    assertThat(hubs.errorMessage()).contains("'roundhouse' is the hub's own server");

    Reply both = turnStart(List.of(map("name", "x", "command", "a", "url", "http://127.0.0.1:1/mcp")));
    assertThat(both.errorMessage()).contains("MCP server 'x' needs either a command (stdio) or a url (http), not both");

    Reply file = turnStart(List.of(map("name", "y", "url", "file:///etc/passwd")));
    assertThat(file.errorMessage()).contains("MCP server 'y' needs an http or https url");
    assertThat(driver.requests).as("no turn started").isEmpty();
  }

  private Reply turnStart(List<Object> servers) {
    return http.post("/api/ops/turn_start", Json.write(Json.tree(map("task", task, "message", "x", "mcp_servers", servers))));
  }
}
