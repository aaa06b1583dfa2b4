package dev.roundhouse.drivers.codex;

import static dev.roundhouse.drivers.codex.FakeResponsesServer.error;
import static dev.roundhouse.drivers.codex.FakeResponsesServer.shell;
import static dev.roundhouse.drivers.codex.FakeResponsesServer.text;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.ChildEnvironment;
import dev.roundhouse.drivers.process.ChildProcesses;
import dev.roundhouse.drivers.testing.DriverHub;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.NodeProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end: a real hub (store, runner, gate, HTTP API) running the real Codex against the fake model. */
class CodexHubTest {
  @TempDir Path root;
  final FakeResponsesServer server = FakeResponsesServer.start();
  final List<Long> processes = new CopyOnWriteArrayList<>();
  CodexHome world;
  DriverHub hub;

  @BeforeEach
  void setUp() {
    world = new CodexHome(root, server);
    CodexDriver driver = new CodexDriver(world.settings(), new CodexDriver.Tuning(ChildEnvironment::fromHub, PriceTable.DEFAULT, new CodexDriver.Observer() {
      @Override
      public void started(AppServer app) {
        processes.add(app.pid());
      }
    }));
    hub = DriverHub.of(driver).lingerTimeout(Duration.ofSeconds(2)).servingMcp().projectAt(world.project()).start();
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    hub.close();
    server.close();
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(10));
  }

  @Test
  void aCommandRunsAfterTheUserAllowsIt() throws Exception {
    server.enqueue(shell("call_1", "echo hello > hello.txt"), text("I wrote ", "hello.txt."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "please write hello.txt", "driver", "codex"));
    Event requested = hub.await("turn.permission_requested");
    assertThat(requested.data().get("tool").asText()).isEqualTo("shell");
    assertThat(requested.data().get("command").asText()).isEqualTo("echo hello > hello.txt");
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "allow_once"));
    Event ended = hub.await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    assertThat(Files.readString(world.project().resolve("hello.txt"))).isEqualTo("hello\n");
    assertThat(hub.transcriptTypes()).containsSubsequence(
        "turn.started", "turn.user_message", "turn.session", "turn.tool_call", "decision.opened", "turn.permission_requested",
        "decision.answered", "turn.tool_result", "turn.usage", "turn.message", "turn.usage", "turn.result", "turn.ended");
    JsonNode result = hub.transcript().findParents("stop_reason").get(0);
    assertThat(result.get("stop_reason").asText()).isEqualTo("end_turn");
    assertThat(result.get("text").asText()).isEqualTo("I wrote hello.txt.");
  }

  @Test
  void aLaterTurnOfTheTaskResumesTheCodexThread() {
    server.enqueue(text("First."), text("Second."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "remember teapot", "driver", "codex"));
    assertThat(hub.await("turn.ended").data().get("status").asText()).isEqualTo("completed");
    hub.http().op("turn_start", map("task", hub.task(), "message", "what word?", "driver", "codex"));
    assertThat(hub.await("turn.ended").data().get("status").asText()).isEqualTo("completed");

    List<String> sessions = hub.transcript().findValuesAsText("session_id");
    assertThat(sessions).hasSize(2);
    assertThat(sessions.get(1)).isEqualTo(sessions.get(0));
    assertThat(server.request(1).json().path("input").toString()).contains("remember teapot").contains("First.");
    assertThat(processes).hasSize(2);
  }

  @Test
  void turnStopInterruptsCodexAndLeavesNoProcess() {
    server.enqueue(FakeResponsesServer.stallAfter("Let me think"));
    hub.http().op("turn_start", map("task", hub.task(), "message", "think hard", "driver", "codex"));
    hub.events().await("turn.text_delta on task " + hub.task(), Duration.ofSeconds(30), e -> e.type().equals("turn.text_delta"));

    long started = System.nanoTime();
    JsonNode stopped = hub.http().op("turn_stop", map("task", hub.task()));

    assertThat(stopped.at("/turn/status").asText()).isEqualTo("stopped");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(8));
    assertThat(ProcessHandle.of(processes.get(0)).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(hub.transcriptTypes()).doesNotContain("turn.error");
  }

  @Test
  void anApiErrorFailsTheTurnWithOneErrorNamingTheEndpoint() {
    server.enqueue(error(400, "Unsupported parameter: 'reasoning'"));

    hub.http().op("turn_start", map("task", hub.task(), "message", "hi", "driver", "codex"));
    Event ended = hub.await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("failed");
    assertThat(hub.transcriptTypes()).filteredOn("turn.error"::equals).hasSize(1);
    JsonNode error = hub.transcript().findParents("message").stream()
        .filter(entry -> entry.path("message").asText().contains("endpoint")).findFirst().orElseThrow();
    assertThat(error.get("message").asText())
        .isEqualTo("the model endpoint " + server.baseUrl() + " (codex provider 'fake') failed: Unsupported parameter: 'reasoning'");
  }

  /**
   * The agent calls the hub's own MCP tool for real: Codex, given the hub's {@code /mcp} for the thread (the
   * task token in its environment), calls {@code suggest_task} without asking (the hub applies its actor
   * rules), and the suggestion lands on the board as {@code agent:<task>}.
   */
  @Test
  void theAgentCallsSuggestTaskAndItLandsOnTheBoardAsTheTasksAgent() {
    server.enqueue(FakeResponsesServer.mcpCall("call_s", CodexSession.HUB_SERVER, "suggest_task",
            "{\"project\": \"web\", \"title\": \"Write the release notes\"}"),
        text("I suggested it."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "suggest a follow-up task", "driver", "codex"));
    Event ended = hub.await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    JsonNode suggested = hub.http().op("task_list", map("project", "web")).findParents("title").stream()
        .filter(t -> t.path("title").asText().equals("Write the release notes")).findFirst()
        .orElseThrow(() -> new AssertionError("no suggestion on the board; the transcript: " + hub.transcript()));
    assertThat(suggested.path("suggested").asBoolean()).isTrue();
    assertThat(suggested.path("created_by").asText()).isEqualTo("agent:" + hub.task());
    Event created = hub.events().find("the suggested task's creation", Duration.ofSeconds(5),
        e -> e.type().equals("task.created") && Long.valueOf(suggested.path("id").asLong()).equals(e.taskId()));
    assertThat(created.actor()).isEqualTo(dev.roundhouse.hub.core.Actor.agent(hub.task()));
    List<JsonNode> results = new ArrayList<>();
    hub.transcript().forEach(entry -> {
      if (entry.path("type").asText().equals("turn.tool_result")) {
        results.add(entry.path("data"));
      }
    });
    assertThat(results).hasSize(1);
    JsonNode result = results.get(0);
    assertThat(result.path("output").asText()).contains("suggest_task filed task " + suggested.path("id").asLong() + " 'Write the release notes'");
    assertThat(result.path("is_error").asBoolean()).isFalse();
  }

  /**
   * A face's (an editor's) MCP server reaches Codex for real: the turn is given the notes stdio server of the
   * editor tests ({@code lsp-bridge/src/test/node/notes-server.mjs}, a secret in its env); Codex starts it,
   * the model calls its tool, the hub's gate asks first, and the tool's answer (which proves the server got
   * the secret, without echoing it) is the turn's tool result. The secret is not in the transcript.
   */
  @Test
  void anEditorsMcpServerGivenToTheTurnIsCalledThroughTheGate() {
    NodeProject notes = NodeProject.installed("lsp-bridge", "src", "test", "node");
    String secret = "s3cret-notes-token-4711";
    server.enqueue(FakeResponsesServer.mcpCall("call_n", "notes", "lookup_note", "{\"topic\": \"trains\"}"),
        text("The note is about trains."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "what does the note on trains say?", "driver", "codex",
        "mcp_servers", List.of(map("name", "notes", "command", "node",
            "args", List.of(notes.folder().resolve("notes-server.mjs").toString()), "env", map("NOTES_TOKEN", secret)))));
    Event requested = hub.await("turn.permission_requested");
    assertThat(requested.data().toString()).contains("lookup_note");
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "allow_once"));
    Event ended = hub.await("turn.ended");

    assertThat(ended.data().get("status").asText()).as("%s", hub.transcript()).isEqualTo("completed");
    List<JsonNode> results = new ArrayList<>();
    hub.transcript().forEach(entry -> {
      if (entry.path("type").asText().equals("turn.tool_result")) {
        results.add(entry.path("data"));
      }
    });
    assertThat(results).singleElement().satisfies(result -> assertThat(result.path("output").asText())
        .contains("note on trains: the token has " + secret.length() + " characters (over stdio)"));
    assertThat(hub.transcript().toString()).doesNotContain(secret);
  }
}
