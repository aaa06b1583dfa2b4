package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stdio relay ({@link StdioBridge}, what {@code roundhouse mcp} runs) against a real hub that forgets the
 * relay's session (the session is ended on the hub, as a restart or an expiry ends it; the relay's own GET
 * stream keeps the hub from sweeping it while it runs, see {@link McpSessionExpiryTest} for the sweep): the
 * client's next request still gets its answer, through a new session the relay started, and a subscription
 * carries over to it. The hub's sessions expire after 200 ms idle here (injected; 30 minutes in the product).
 */
class McpStdioExpiryTest {
  private static final Duration IDLE = Duration.ofMillis(200);
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private TestHub hub;
  private String token;
  private long task;
  private final HttpClient http = HttpClient.newHttpClient();
  private final BlockingQueue<JsonNode> stdout = new LinkedBlockingQueue<>();
  private PipedOutputStream stdin;
  private StdioBridge bridge;
  private Thread relay;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withMounts(config -> config, h -> List.of(McpServers.streamableHttp(h, McpOptions.DEFAULTS.withSessionIdle(IDLE))));
    token = Files.readString(McpServers.tokenFile(hub.home())).strip();
    Files.createDirectories(hub.home().resolve("repo"));
    invoke("project_create", Map.of("name", "web", "path", hub.home().resolve("repo").toString()));
    task = invoke("task_create", Map.of("project", "web", "title", "Survive expiry")).get("id").asLong();
    stdin = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(stdin, 1 << 16);
    bridge = new StdioBridge(hub.server().url(), mayStart -> hub.server().url(), () -> token, new Writer() {
      private final StringBuilder line = new StringBuilder();

      @Override
      public void write(char[] buffer, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
          if (buffer[i] == '\n') {
            stdout.add(Json.read(line.toString(), JsonNode.class));
            line.setLength(0);
          } else {
            line.append(buffer[i]);
          }
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    });
    relay = Thread.ofVirtual().start(() -> bridge.run(in));
    send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"stdio-expiry\",\"version\":\"1\"}}}");
    assertThat(await(message -> message.path("id").asInt() == 1).path("result").path("serverInfo").path("name").asText()).isEqualTo("roundhouse");
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  }

  @AfterEach
  void stop() throws Exception {
    stdin.close();
    relay.join(DEADLINE);
    assertThat(relay.isAlive()).as("the relay ends when stdin closes").isFalse();
    http.close();
    hub.close();
  }

  @Test
  void requestAfterTheHubForgotTheSessionIsAnsweredThroughANewSession() throws Exception {
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
    assertThat(await(message -> message.path("id").asInt() == 2).path("result").path("tools").size()).isPositive();
    String expired = bridge.session();

    assertThat(http.send(mcp(expired).DELETE().build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    HttpResponse<String> refusal = http.send(mcp(expired).POST(HttpRequest.BodyPublishers.ofString(
        "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(refusal.statusCode()).as("the hub no longer knows the session").isEqualTo(404);

    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"task_get\",\"arguments\":{\"task\":" + task + "}}}");
    JsonNode answer = await(message -> message.path("id").asInt() == 3);
    assertThat(answer.path("error").isMissingNode()).as(answer.toString()).isTrue();
    assertThat(answer.path("result").path("isError").asBoolean()).as(answer.toString()).isFalse();
    assertThat(answer.path("result").path("structuredContent").path("title").asText()).isEqualTo("Survive expiry");
    assertThat(bridge.session()).isNotNull().isNotEqualTo(expired);
    assertThat(stdout).as("the replayed initialize's answer is not the client's").isEmpty();
  }

  @Test
  void subscriptionCarriesOverToTheNewSession() throws Exception {
    String uri = "roundhouse://tasks/" + task;
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"" + uri + "\"}}");
    assertThat(await(message -> message.path("id").asInt() == 2).has("result")).isTrue();
    String forgotten = bridge.session();

    // The hub forgets the session, as a restarted hub would: the relay's listening stream ends and is refused.
    HttpResponse<String> deleted = http.send(mcp(forgotten).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(deleted.statusCode()).isEqualTo(200);

    JsonNode updated = null;
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    for (int edit = 1; updated == null && System.nanoTime() < deadline; edit++) {
      invoke("task_update", Map.of("task", task, "description", "edit " + edit));
      updated = stdout.poll(1, TimeUnit.SECONDS);
      while (updated != null && !updated.path("method").asText().equals("notifications/resources/updated")) {
        updated = stdout.poll(1, TimeUnit.SECONDS);
      }
    }
    assertThat(updated).as("resources/updated after the session was replaced").isNotNull();
    assertThat(updated.path("params").path("uri").asText()).isEqualTo(uri);
    assertThat(bridge.session()).isNotEqualTo(forgotten);
  }

  private HttpRequest.Builder mcp(String session) {
    return HttpRequest.newBuilder(URI.create(hub.server().url() + McpServers.PATH))
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("Mcp-Session-Id", session)
        .timeout(DEADLINE);
  }

  private void send(String line) throws IOException {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  private JsonNode await(Predicate<JsonNode> wanted) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    for (long left; (left = deadline - System.nanoTime()) > 0; ) {
      JsonNode message = stdout.poll(left, TimeUnit.NANOSECONDS);
      if (message != null && wanted.test(message)) {
        return message;
      }
    }
    throw new AssertionError("no such message on stdout within " + DEADLINE);
  }

  private JsonNode invoke(String operation, Map<String, Object> input) {
    return hub.hub().operations().invoke(operation, Actor.USER, Json.tree(input));
  }
}
