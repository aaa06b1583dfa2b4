package dev.roundhouse.services.hub;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the services module ends when a module asks the hub to end a task's processes ({@code stopTaskProcesses},
 * as the workspace module does before a reclaim), with real services and real shells on PTYs: the task's services
 * and those running in its folder, the terminals opened for it or standing in its folder; never anything else.
 */
class TaskProcessesTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final ContextProbe probe = new ContextProbe();
  private TestHub hub;
  private HttpTestClient http;
  private HttpClient client;
  private Path worktree;
  private long task;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withExtensions(config -> config, List.of(),
        List.of(new ServicesExtension(ServicesHubSupport.settings()), probe));
    http = hub.http();
    Path project = Path.of(hub.folder("web"));
    ServicesHubSupport.project(hub.hub(), "web", project);
    worktree = Files.createDirectories(Path.of(hub.folder("worktrees")).resolve("web-task"));
    task = hub.hub().operations().call("task_create", Actor.USER,
        new BoardApi.TaskCreate("web", "served", null, null, null, null, null, null, null, null, null, null), Task.class).id();
    client = HttpClient.newHttpClient();
  }

  @AfterEach
  void stop() {
    client.shutdownNow(); // a bystander's socket may still be open: do not wait for it
    hub.close();
  }

  @Test
  void theTasksServicesAndTerminalsEndAndNothingElseDoes() throws Exception {
    http.op("service_define", map("project", "web", "name", "for-task", "command", "sleep 300", "task", task));
    http.op("service_define", map("project", "web", "name", "in-folder", "command", "sleep 300", "cwd", worktree.toString(),
        "restart", map("mode", "always")));
    http.op("service_define", map("project", "web", "name", "elsewhere", "command", "sleep 300"));
    long forTask = started("for-task");
    long inFolder = started("in-folder");
    long elsewhere = started("elsewhere");
    TerminalWebSocketTest.Screen opened = new TerminalWebSocketTest.Screen();
    connect(opened, "task=" + task);
    TerminalWebSocketTest.Screen wandered = new TerminalWebSocketTest.Screen();
    WebSocket wanderer = connect(wandered, "project=web");
    // The quotes keep the terminal's echo of the typed line from matching before the shell ran it.
    wanderer.sendBinary(ByteBuffer.wrap(("cd " + worktree + " && echo arr''ived\n").getBytes(StandardCharsets.UTF_8)), true).join();
    wandered.await("arrived\\r?\\n");
    TerminalWebSocketTest.Screen bystander = new TerminalWebSocketTest.Screen();
    connect(bystander, "project=web");

    List<String> stopped = probe.context().stopTaskProcesses(Actor.USER, task, worktree);

    assertThat(stopped).hasSize(4).anyMatch(line -> line.contains("service for-task"))
        .anyMatch(line -> line.contains("service in-folder")).anyMatch(line -> line.contains("pid " + opened.pid()))
        .anyMatch(line -> line.contains("pid " + wandered.pid()));
    for (long pid : new long[] {forTask, inFolder, opened.pid(), wandered.pid()}) {
      Waits.until("pid " + pid + " ends", WAIT, () -> !ServicesHubSupport.alive(pid));
    }
    assertThat(ServicesHubSupport.alive(elsewhere)).as("a service outside the task's folder").isTrue();
    assertThat(ServicesHubSupport.alive(bystander.pid())).as("a terminal outside the task's folder").isTrue();
    assertThat(status("in-folder")).as("not restarted, though its policy is always").isEqualTo("stopped");
    assertThat(probe.context().stopTaskProcesses(Actor.USER, task, worktree)).as("nothing left to end").isEmpty();
  }

  private long started(String service) {
    return http.op("service_start", map("project", "web", "service", service, "wait_seconds", 30)).path("pid").asLong();
  }

  private String status(String service) {
    for (com.fasterxml.jackson.databind.JsonNode state : http.op("service_list", map("project", "web")).path("services")) {
      if (state.path("state").path("name").asText().equals(service)) {
        return state.path("state").path("status").asText();
      }
    }
    throw new AssertionError("no service " + service);
  }

  private WebSocket connect(TerminalWebSocketTest.Screen screen, String query) {
    WebSocket socket = client.newWebSocketBuilder().header("Authorization", "Bearer " + hub.hub().token())
        .buildAsync(URI.create(hub.server().url().replace("http://", "ws://") + "/api/x/pty?" + query), screen)
        .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    screen.pid();
    return socket;
  }
}
