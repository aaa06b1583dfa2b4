package dev.roundhouse.mcpserver;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tool calls that {@link DirectToolCalls} answers without the SDK, on a real hub over raw HTTP: the answer is
 * the SDK's byte for byte, a write runs as the session's client and logs at the session's level, and a session
 * that only makes such calls outlives the SDK's sweeps (injected idle time: 400 ms) yet still expires when idle.
 */
class McpDirectToolCallsTest {
  private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}";

  private TestHub hub;
  private StreamableHttpMount mount;
  private RawSessions sessions;
  private long task;

  private void start(McpOptions options) throws Exception {
    hub = TestHub.withMounts(config -> config, h -> {
      mount = (StreamableHttpMount) McpServers.streamableHttp(h, options);
      return List.of(mount);
    });
    sessions = new RawSessions(hub.server().url(), Files.readString(McpServers.tokenFile(hub.home())).strip());
    hub.http().op("project_create", map("name", "web", "path", hub.folder("web")));
    task = hub.http().op("task_create", map("project", "web", "title", "Fix the login page")).get("id").asLong();
  }

  @AfterEach
  void stop() {
    if (sessions != null) {
      sessions.close();
    }
    if (hub != null) {
      hub.close();
    }
  }

  @Test
  void aDirectAnswerIsTheSdksAnswerByteForByte() throws Exception {
    start(McpOptions.DEFAULTS);
    String session = sessions.initialize("same-bytes");

    HttpResponse<String> bySdk = sessions.post(session, CALL.formatted("\"c-1\"", "task_get", "{\"task\":" + task + "}"));
    assertThat(mount.directAnswers()).as("a session's first request goes to the SDK").isZero();
    HttpResponse<String> direct = sessions.post(session, CALL.formatted("\"c-1\"", "task_get", "{\"task\":" + task + "}"));
    assertThat(mount.directAnswers()).isEqualTo(1);

    assertThat(direct.statusCode()).isEqualTo(bySdk.statusCode()).isEqualTo(200);
    assertThat(direct.body()).isEqualTo(bySdk.body());
    assertThat(direct.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
    JsonNode answer = Json.read(events(direct.body()).get(0).data(), JsonNode.class);
    assertThat(answer.path("id").asText()).isEqualTo("c-1");
    assertThat(answer.path("result").path("structuredContent").path("title").asText()).isEqualTo("Fix the login page");
  }

  @Test
  void aDirectWriteRunsAsTheClientAndLogsAtTheSessionsLevel() throws Exception {
    start(McpOptions.DEFAULTS);
    String session = sessions.initialize("chat-client");
    assertThat(sessions.post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode()).isEqualTo(202);
    assertThat(sessions.post(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"info\"}}").statusCode())
        .isEqualTo(200);

    List<Event> created = events(sessions.post(session, CALL.formatted(3, "task_create", "{\"project\":\"web\",\"title\":\"Dark mode\"}")).body());
    List<Event> read = events(sessions.post(session, CALL.formatted(4, "task_get", "{\"task\":" + task + "}")).body());
    List<Event> refused = events(sessions.post(session, CALL.formatted(5, "task_get", "{\"task\":999}")).body());
    assertThat(mount.directAnswers()).isEqualTo(3);

    assertThat(created).hasSize(2);
    JsonNode log = Json.read(created.get(0).data(), JsonNode.class);
    assertThat(log.path("method").asText()).isEqualTo("notifications/message");
    assertThat(log.path("params").path("level").asText()).isEqualTo("info");
    assertThat(log.path("params").path("logger").asText()).isEqualTo(ToolCalls.LOGGER);
    assertThat(log.path("params").path("data").asText()).startsWith("task_create for client:chat-client done in");
    JsonNode task = Json.read(created.get(1).data(), JsonNode.class).path("result").path("structuredContent");
    assertThat(task.path("created_by").asText()).isEqualTo("client:chat-client");
    assertThat(created.get(0).id()).isNotEqualTo(created.get(1).id());

    assertThat(read).as("a read logs at debug, below the session's level").hasSize(1);
    assertThat(refused).hasSize(2);
    assertThat(Json.read(refused.get(0).data(), JsonNode.class).path("params").path("level").asText()).isEqualTo("warning");
    JsonNode error = Json.read(refused.get(1).data(), JsonNode.class).path("result");
    assertThat(error.path("isError").asBoolean()).isTrue();
    assertThat(error.path("content").get(0).path("text").asText()).contains("no task 999");
  }

  @Test
  void aSessionThatOnlyCallsToolsOutlivesTheSweepsAndExpiresWhenIdle() throws Exception {
    Duration idle = Duration.ofMillis(400);
    start(McpOptions.DEFAULTS.withSessionIdle(idle));
    String session = sessions.initialize("busy");
    String call = CALL.formatted(1, "task_get", "{\"task\":" + task + "}");

    long calls = 0;
    long until = System.nanoTime() + idle.toNanos() * 6; // six sweeps
    while (System.nanoTime() < until) {
      HttpResponse<String> answer = sessions.post(session, call);
      assertThat(answer.statusCode()).as("call %d: %s", calls, answer.body()).isEqualTo(200);
      assertThat(answer.body()).contains("Fix the login page");
      calls++;
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos()); // a client's pace, not a wait for an event
    }
    assertThat(mount.directAnswers()).as("most of %d calls bypass the SDK; some go through it", calls)
        .isPositive().isLessThan(calls);

    HttpResponse<String> probe = sessions.awaitExpired(session, call, idle);
    assertThat(probe.statusCode()).as(probe.body()).isEqualTo(404);
    assertThat(Json.read(probe.body(), JsonNode.class).path("error").path("code").asInt()).isEqualTo(JsonRpcErrors.SESSION_NOT_FOUND);
  }

  private record Event(String id, String data) {}

  private static List<Event> events(String stream) {
    List<Event> events = new ArrayList<>();
    for (String block : stream.split("\n\n")) {
      String id = null;
      String data = null;
      for (String line : block.split("\n")) {
        if (line.startsWith("id: ")) {
          id = line.substring(4);
        } else if (line.startsWith("data: ")) {
          data = line.substring(6);
        }
      }
      if (data != null) {
        events.add(new Event(id, data));
      }
    }
    assertThat(events).as(Arrays.toString(stream.split("\n"))).isNotEmpty();
    return events;
  }
}
