package dev.roundhouse.services.hub;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.TextFrames;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * expose_service end to end: a real dev service behind the hub's reverse proxy, the user's decision, the hub's
 * token and origin checks, a shared link and its revocation, a WebSocket through the proxy.
 */
class ExposeServiceTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String FOREIGN = "http://evil.example";

  private TestHub hub;
  private HttpTestClient http;
  private Path folder;
  private HttpClient client;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(new ServicesExtension(ServicesHubSupport.settings())));
    http = hub.http();
    folder = Path.of(hub.folder("web"));
    ServicesHubSupport.project(hub.hub(), "web", folder);
    Files.writeString(folder.resolve("hello.txt"), "hello through the hub\n");
    client = HttpClient.newHttpClient();
  }

  @AfterEach
  void stop() {
    client.close();
    hub.close();
  }

  private long startService(String name, String command) {
    ServicesHubSupport.define(http, "web", name, command, null, map("check", "port"));
    JsonNode started = http.op("service_start", map("project", "web", "service", name, "wait_seconds", 30));
    assertThat(started.path("status").asText()).isEqualTo("ready");
    return started.path("pid").asLong();
  }

  private long agentTask() {
    return hub.hub().operations().call("task_create", Actor.USER,
        new BoardApi.TaskCreate("web", "show the page", null, null, null, null, null, null, null, null, null, null), Task.class).id();
  }

  private HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(hub.server().url() + path)).timeout(WAIT);
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String bearer() {
    return "Bearer " + hub.hub().token();
  }

  @Test
  void agentsServiceIsServedOnlyAfterTheUserApproves() throws Exception {
    long pid = startService("http", "python3 -m http.server $PORT --bind 127.0.0.1");
    long task = agentTask();
    assertThat(hub.hub().agentTools(task)).contains("expose_service", "service_unexpose", "service_exposures");

    JsonNode asked = hub.hub().operations().invoke("expose_service", Actor.agent(task), Json.tree(map("project", "web", "service", "http", "reason", "to show the page")));
    assertThat(asked.path("status").asText()).isEqualTo("pending");
    long decision = asked.path("decision").asLong();
    JsonNode pending = http.op("decision_list", map("project", "web")).path("decisions").get(0);
    assertThat(pending.path("id").asLong()).isEqualTo(decision);
    assertThat(pending.path("task_id").asLong()).isEqualTo(task);
    assertThat(pending.path("kind").asText()).isEqualTo("service_exposure");
    assertThat(pending.path("options").toString()).contains("approve", "reject");
    assertThat(get("/api/x/expose/web/http/hello.txt", "Authorization", bearer()).statusCode()).isEqualTo(404);

    assertThatThrownBy(() -> hub.hub().operations().invoke("decision_answer", Actor.agent(task), Json.tree(map("decision", decision, "answer", "approve"))))
        .isInstanceOf(RoundhouseException.class).hasMessageContaining("a person must");
    http.op("decision_answer", map("decision", decision, "answer", "approve"));

    HttpResponse<String> served = get("/api/x/expose/web/http/hello.txt", "Authorization", bearer());
    assertThat(served.statusCode()).isEqualTo(200);
    assertThat(served.body()).isEqualTo("hello through the hub\n");
    assertThat(get("/api/x/expose/web/http/hello.txt").statusCode()).isEqualTo(401);
    assertThat(get("/api/x/expose/web/http/hello.txt", "Authorization", bearer(), "Origin", FOREIGN).statusCode())
        .isEqualTo(403);
    HttpResponse<String> bare = get("/api/x/expose/web/http", "Authorization", bearer());
    assertThat(bare.statusCode()).isEqualTo(308);
    assertThat(bare.headers().firstValue("Location")).hasValue("/api/x/expose/web/http/");

    JsonNode listed = hub.hub().operations().invoke("service_exposures", Actor.agent(task), Json.tree(map("project", "web")));
    assertThat(listed.path("exposures").get(0).path("path").asText()).isEqualTo("/api/x/expose/web/http/");
    assertThat(listed.path("exposures").get(0).path("approved_by").asText()).isEqualTo("user");
    assertThat(listed.path("exposures").get(0).path("decision").asLong()).isEqualTo(decision);

    http.op("service_stop", map("project", "web", "service", "http"));
    assertThat(ServicesHubSupport.alive(pid)).isFalse();
    HttpResponse<String> stopped = get("/api/x/expose/web/http/hello.txt", "Authorization", bearer());
    assertThat(stopped.statusCode()).isEqualTo(503);
    assertThat(stopped.body()).contains("is stopped");
  }

  @Test
  void rejectedRequestExposesNothing() throws Exception {
    startService("http", "python3 -m http.server $PORT --bind 127.0.0.1");
    long task = agentTask();
    JsonNode asked = hub.hub().operations().invoke("expose_service", Actor.agent(task), Json.tree(map("project", "web", "service", "http", "access", "shared")));
    http.op("decision_answer", map("decision", asked.path("decision").asLong(), "answer", "reject"));

    assertThat(http.op("service_exposures", map("project", "web")).path("exposures")).isEmpty();
    assertThat(get("/api/x/expose/web/http/hello.txt", "Authorization", bearer()).statusCode()).isEqualTo(404);
    assertThatThrownBy(() -> hub.hub().operations().invoke("expose_service", Actor.agent(task), Json.tree(map("project", "web", "service", "nope"))))
        .isInstanceOf(RoundhouseException.NotFound.class).hasMessageContaining("no service nope");
  }

  @Test
  void sharedLinkWorksWithoutTheTokenUntilRevoked() throws Exception {
    startService("http", "python3 -m http.server $PORT --bind 127.0.0.1");
    JsonNode exposed = http.op("expose_service", map("project", "web", "service", "http", "access", "shared"));
    assertThat(exposed.path("status").asText()).isEqualTo("exposed");
    String path = exposed.path("exposure").path("path").asText();
    assertThat(path).matches("/api/x/share/[A-Za-z0-9_-]{43}/");

    HttpResponse<String> served = get(path + "hello.txt");
    assertThat(served.statusCode()).isEqualTo(200);
    assertThat(served.body()).isEqualTo("hello through the hub\n");
    assertThat(get(path + "hello.txt", "Origin", "http://127.0.0.1:" + hub.server().port()).statusCode()).isEqualTo(200);
    assertThat(get(path + "hello.txt", "Origin", FOREIGN).statusCode()).isEqualTo(403);
    assertThat(get("/api/x/share/" + "A".repeat(43) + "/hello.txt").statusCode()).isEqualTo(404);
    assertThat(get("/api/x/expose/web/http/hello.txt", "Authorization", bearer()).statusCode()).isEqualTo(200);

    JsonNode revoked = http.op("service_unexpose", map("project", "web", "service", "http"));
    assertThat(revoked.path("was_exposed").asBoolean()).isTrue();
    assertThat(get(path + "hello.txt").statusCode()).isEqualTo(404);
    assertThat(get("/api/x/expose/web/http/hello.txt", "Authorization", bearer()).statusCode()).isEqualTo(404);
  }

  @Test
  void webSocketEchoesThroughTheProxy() throws Exception {
    try (InputStream script = ExposeServiceTest.class.getResourceAsStream("ws_echo.py")) {
      Files.copy(script, folder.resolve("ws_echo.py"));
    }
    long pid = startService("ws", "python3 ws_echo.py $PORT");
    JsonNode exposed = http.op("expose_service", map("project", "web", "service", "ws", "access", "shared"));
    String shared = exposed.path("exposure").path("path").asText();

    TextFrames privately = new TextFrames();
    WebSocket socket = client.newWebSocketBuilder().header("Authorization", bearer())
        .buildAsync(URI.create(hub.server().url().replace("http://", "ws://") + "/api/x/expose/web/ws/echo"), privately)
        .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    socket.sendText("hello", true).join();
    assertThat(privately.next(WAIT)).isEqualTo("echo: hello");
    socket.sendText("again", true).join();
    assertThat(privately.next(WAIT)).isEqualTo("echo: again");
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    assertThat(privately.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(WebSocket.NORMAL_CLOSURE);

    TextFrames byLink = new TextFrames();
    WebSocket linked = client.newWebSocketBuilder()
        .buildAsync(URI.create(hub.server().url().replace("http://", "ws://") + shared + "echo"), byLink)
        .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    linked.sendText("shared", true).join();
    assertThat(byLink.next(WAIT)).isEqualTo("echo: shared");
    linked.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();

    assertThatThrownBy(() -> client.newWebSocketBuilder().header("Origin", FOREIGN)
        .buildAsync(URI.create(hub.server().url().replace("http://", "ws://") + shared + "echo"), new TextFrames()).join())
        .hasStackTraceContaining("status code 403");

    http.op("service_stop", map("project", "web", "service", "ws"));
    assertThat(ServicesHubSupport.alive(pid)).isFalse();
  }
}
