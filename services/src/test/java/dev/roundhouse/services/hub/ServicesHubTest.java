package dev.roundhouse.services.hub;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.ext.ExtensionResources;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.SseTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The services extension in a real hub, with real processes: operations, the log stream, ports in turns. */
class ServicesHubTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final TestDriver driver = new TestDriver("test", false, (request, context) -> {});
  private TestHub hub;
  private HttpTestClient http;
  private Project web;

  @BeforeEach
  void start() {
    hub = TestHub.withExtensions(config -> config, List.of(driver), List.of(new ServicesExtension(ServicesHubSupport.settings())));
    http = hub.http();
    web = ServicesHubSupport.project(hub.hub(), "web", Path.of(hub.folder("web")));
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  @Test
  void pythonServiceIsReadyOnThePortServesLogsOverTheOperationAndSseAndLeavesNothingAfterStop() throws Exception {
    JsonNode listed = http.op("service_list", map("project", "web"));
    int port = listed.path("port").asInt();
    assertThat(listed.path("extra_ports").path("PORT_1").asInt()).isEqualTo(port + 1);
    ServicesHubSupport.define(http, "web", "http", "python3 -m http.server $PORT --bind 127.0.0.1", null,
        map("check", "port"));

    JsonNode started = http.op("service_start", map("project", "web", "service", "http", "wait_seconds", 30));

    assertThat(started.path("status").asText()).isEqualTo("ready");
    assertThat(started.path("port").asInt()).isEqualTo(port);
    long pid = started.path("pid").asLong();
    HttpResponse<String> page = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    Waits.until("the request is logged", WAIT, () -> http.op("service_logs", map("project", "web", "service", "http"))
        .path("lines").toString().contains("GET / HTTP/1.1"));

    try (SseTestClient log = SseTestClient.open(http, "/api/x/services/web/http/logs?after=-1&follow=1")) {
      assertThat(log.status()).isEqualTo(200);
      SseTestClient.SseEvent first = until(log, "GET / HTTP/1.1");
      assertThat(first.event()).isEqualTo("line");
      HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/again")).build(),
          HttpResponse.BodyHandlers.discarding());
      SseTestClient.SseEvent followed = until(log, "GET /again");
      assertThat(Long.parseLong(followed.id())).isGreaterThan(Long.parseLong(first.id()));
    }
    try (SseTestClient once = SseTestClient.open(http, "/api/x/services/web/http/logs")) {
      until(once, "GET /again");
      while (!once.ended(WAIT)) {
        // the lines after it, if any, then the end: without follow the stream ends once caught up
      }
    }

    JsonNode stopped = http.op("service_stop", map("project", "web", "service", "http"));

    assertThat(stopped.path("status").asText()).isEqualTo("stopped");
    assertThat(ServicesHubSupport.alive(pid)).as("the service's process").isFalse();
  }

  @Test
  void statusChangesAreDurableEventsAndTheLogIsAResourceWithThrottledNotices() {
    try (EventRecorder events = new EventRecorder(hub.hub())) {
      ServicesHubSupport.define(http, "web", "ticker", "sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do echo tick $i; sleep 0.1; done; sleep 30'",
          null, map("check", "log", "pattern", "tick 3"));
      http.op("service_start", map("project", "web", "service", "ticker", "wait_seconds", 30));

      events.await("ready", WAIT, e -> e.type().equals("service.status") && e.data().path("service").path("status").asText().equals("ready"));
      String uri = "roundhouse://services/web/ticker/log";
      Waits.until("all ten ticks", WAIT, () -> read(uri).contains("tick 10"));
      events.await("a log notice", WAIT, e -> e.type().equals(ExtensionResources.UPDATED) && e.data().toString().contains(uri));
      long notices = events.seen().stream().filter(e -> e.type().equals(ExtensionResources.UPDATED)).count();
      assertThat(notices).as("ten lines in a second, at most one notice a second").isLessThanOrEqualTo(3);
      http.op("service_stop", map("project", "web", "service", "ticker"));
      assertThat(events.seen().stream().filter(e -> e.type().equals("service.status")).map(e -> e.seq()))
          .as("durable: stored with a sequence").allMatch(seq -> seq > 0);
      assertThat(events.types()).contains("service.defined", "service.port_assigned");
    }
  }

  @Test
  void everyTurnGetsTheProjectPort() {
    int port = http.op("service_list", map("project", "web")).path("port").asInt();
    Task task = hub.hub().operations().call("task_create", Actor.USER,
        new BoardApi.TaskCreate("web", "try it", null, null, null, null, null, null, "test", null, null, null), Task.class);

    hub.hub().operations().call("turn_start", Actor.USER, new TurnApi.TurnStart(task.id(), "hello", "test", null, null, null),
        Object.class);

    Waits.until("the driver ran", WAIT, () -> !driver.requests.isEmpty());
    assertThat(driver.requests.get(0).environment()).containsEntry("PORT", String.valueOf(port))
        .containsEntry("PORT_9", String.valueOf(port + 9));
  }

  @Test
  void aPortHeldByAnotherProcessIsAReadableConflictNamingIt() throws Exception {
    int port = http.op("service_list", map("project", "web")).path("port").asInt();
    ServicesHubSupport.define(http, "web", "http", "python3 -m http.server $PORT --bind 127.0.0.1", null, map("check", "port"));
    try (java.net.ServerSocket squatter = new java.net.ServerSocket(port)) {
      HttpTestClient.Reply reply = http.post("/api/ops/service_start", dev.roundhouse.hub.core.Json.write(map("project", "web", "service", "http")));

      assertThat(reply.status()).isEqualTo(409);
      assertThat(reply.errorMessage()).contains("port " + port).contains("pid " + ProcessHandle.current().pid());
    }
  }

  @Test
  void definitionsAreValidatedUpdatedAndRemoved() {
    HttpTestClient.Reply bad = http.post("/api/ops/service_define", dev.roundhouse.hub.core.Json.write(
        map("project", "web", "name", "Bad Name", "command", "true")));
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.errorMessage()).contains("service name 'Bad Name'");
    HttpTestClient.Reply missing = http.post("/api/ops/service_start", dev.roundhouse.hub.core.Json.write(map("project", "web", "service", "nope")));
    assertThat(missing.status()).isEqualTo(404);

    ServicesHubSupport.define(http, "web", "job", "echo one", null, null);
    JsonNode updated = http.op("service_update", map("project", "web", "name", "job", "kind", "setup", "env", List.of("A=1")));
    assertThat(updated.path("definition").path("command").asText()).isEqualTo("echo one");
    assertThat(updated.path("definition").path("kind").asText()).isEqualTo("setup");
    assertThat(updated.path("created").asBoolean()).isFalse();

    http.op("service_remove", map("project", "web", "service", "job"));
    assertThat(http.op("service_list", map("project", "web")).path("services")).isEmpty();
  }

  @Test
  void anAgentMayStartItsProjectsServicesButNotDefineThem() {
    Task task = hub.hub().operations().call("task_create", Actor.USER,
        new BoardApi.TaskCreate("web", "agent work", null, null, null, null, null, null, null, null, null, null), Task.class);
    http.op("service_define", map("project", "web", "name", "job", "command", "echo hi", "kind", "setup"));

    assertThat(hub.hub().agentTools(task.id())).contains("service_list", "service_logs", "service_start");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> hub.hub().operations().invoke("service_define", Actor.agent(task.id()),
        dev.roundhouse.hub.core.Json.tree(map("project", "web", "name", "evil", "command", "true"))))
        .hasMessageContaining("an agent may not define services");
    JsonNode started = hub.hub().operations().invoke("service_start", Actor.agent(task.id()),
        dev.roundhouse.hub.core.Json.tree(map("project", "web", "service", "job", "wait_seconds", 10)));
    assertThat(started.path("status").asText()).isEqualTo("exited");
  }

  private static SseTestClient.SseEvent until(SseTestClient stream, String text) {
    while (true) {
      SseTestClient.SseEvent event = stream.next(WAIT);
      if (event.data() != null && event.data().contains(text)) {
        return event;
      }
    }
  }

  private String read(String uri) {
    ExtensionResources.Found found = hub.hub().resources().find(uri).orElseThrow();
    return found.resource().reader().read(Actor.USER, uri, found.variables()).text();
  }
}
