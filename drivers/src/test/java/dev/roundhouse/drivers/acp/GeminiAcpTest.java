package dev.roundhouse.drivers.acp;

import static dev.roundhouse.drivers.acp.FakeGeminiServer.apiError;
import static dev.roundhouse.drivers.acp.FakeGeminiServer.contents;
import static dev.roundhouse.drivers.acp.FakeGeminiServer.functionCall;
import static dev.roundhouse.drivers.acp.FakeGeminiServer.text;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.ChildProcesses;
import dev.roundhouse.drivers.testing.DriverHub;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.NodeProject;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Gemini CLI 0.61.0 ({@code gemini --acp}) against the fake Gemini API, driven by the ACP driver,
 * through a real hub (store, runner, permission gate, HTTP API) except where a case needs a request the
 * runner does not make. Gemini starts in about 2 s (more on a busy machine) and takes about 260 MB, so this
 * one class holds every real-CLI case, and waits with generous deadlines.
 */
class GeminiAcpTest {
  static final Duration TURN = Duration.ofSeconds(90);

  @TempDir Path folder;
  FakeGeminiServer server;
  OfflineGemini gemini;
  DriverHub hub;
  /** Sees the lines of the hub's Gemini (the benchmark sets it). */
  volatile LineObserver lines = LineObserver.NONE;

  @BeforeEach
  void setUp() {
    server = FakeGeminiServer.start();
    gemini = OfflineGemini.in(folder, server);
    startHub(false);
  }

  /** A real hub running the Gemini driver, with a project and a task; with its MCP endpoint when {@code mcp}. */
  private void startHub(boolean mcp) {
    if (hub != null) {
      hub.close();
    }
    AcpDriver driver = new AcpDriver(gemini.config(), OfflineGemini.tuning((nanos, line) -> lines.onLine(nanos, line)));
    DriverHub.Builder setup = DriverHub.of(driver).lingerTimeout(Duration.ofMillis(300)).taskDescription("Write a greeting");
    hub = (mcp ? setup.servingMcp() : setup).start();
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    hub.close();
    server.close();
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(15));
  }

  private Event await(String type) {
    return hub.await(type, TURN);
  }

  private JsonNode last(String type) {
    JsonNode found = null;
    for (JsonNode entry : hub.transcript()) {
      if (entry.get("type").asText().equals(type)) {
        found = entry.get("data");
      }
    }
    assertThat(found).as("a %s in the transcript %s", type, hub.transcriptTypes()).isNotNull();
    return found;
  }

  @Test
  void aPlainAnswerStreamsAndLingersForTheNextMessageInTheSameSession() {
    server.enqueue(text("Hello ", "world"), text("Again"));
    RecordingTurnContext context = new RecordingTurnContext(0).thenMessages("once more");
    AcpDriver driver = gemini.driver();

    try {
      driver.run(new TurnRequest(1, 7, "web", hub.project(), "hi", "Task #7: Say hello", List.of(), null, null, null, false), context);
    } catch (Exception e) {
      throw new AssertionError(e);
    }

    assertThat(context.shape()).isEqualTo("turn.session turn.message turn.usage turn.result turn.message turn.usage turn.result");
    assertThat(context.events(TurnEvent.TextDelta.class)).extracting(TurnEvent.TextDelta::text).containsExactly("Hello ", "world", "Again");
    assertThat(context.events(TurnEvent.Result.class)).extracting(TurnEvent.Result::stopReason, TurnEvent.Result::text)
        .containsExactly(tuple("end_turn", "Hello world"), tuple("end_turn", "Again"));
    assertThat(context.events(TurnEvent.Usage.class).get(0).inputTokens()).isEqualTo(42);
    // The first prompt carried the task; the second went into the same conversation.
    assertThat(server.requests()).hasSize(2);
    assertThat(contents(server.request(0))).contains("Task #7: Say hello").contains("hi");
    assertThat(contents(server.request(1))).contains("Hello world").contains("once more");
    // What Gemini told us about itself, not hard-coded.
    assertThat(driver.capabilities().models()).contains("gemini-2.5-pro");
    assertThat(driver.capabilities().permissionModes()).contains("default", "autoEdit", "yolo", "plan");
    assertThat(driver.authStatus().detail()).startsWith("Gemini CLI 0.61.0 at ").endsWith("; key in GEMINI_API_KEY");
    // A driver that has not run yet asks the program itself (gemini --version).
    assertThat(gemini.driver().authStatus().detail()).startsWith("Gemini CLI 0.61.0 at ");
  }

  @Test
  void anApprovedShellCommandRunsAndTheModelSeesItsOutput() throws IOException {
    server.enqueue(
        functionCall("run_shell_command", "{\"command\": \"echo hello-from-tool > tool_out.txt\", \"description\": \"write a file\"}"),
        text("Done."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "create a file", "driver", "gemini"));
    Event requested = await("turn.permission_requested");
    assertThat(requested.data().get("tool").asText()).isEqualTo("execute");
    assertThat(requested.data().get("command").asText()).startsWith("echo hello-from-tool > tool_out.txt");
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "allow_once"));
    Event ended = await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    assertThat(Files.readString(hub.project().resolve("tool_out.txt"))).isEqualTo("hello-from-tool\n");
    assertThat(hub.transcriptTypes()).containsSubsequence(
        "turn.session", "turn.tool_call", "turn.permission_requested", "decision.answered", "turn.tool_result", "turn.message", "turn.result");
    assertThat(last("turn.tool_result").get("is_error").asBoolean()).isFalse();
    assertThat(last("turn.result").get("text").asText()).isEqualTo("Done.");
    // Gemini sent the command's outcome back to the model.
    assertThat(server.requests()).hasSize(2);
    assertThat(contents(server.request(1))).contains("functionResponse").contains("run_shell_command");
  }

  @Test
  void aDeniedShellCommandDoesNotRunAndTheDenialIsRecordedOnce() {
    server.enqueue(functionCall("run_shell_command", "{\"command\": \"rm -rf build\", \"description\": \"clean\"}"), text("Understood."));
    Path build = hub.project().resolve("build");
    assertThat(build.toFile().mkdirs()).isTrue();

    hub.http().op("turn_start", map("task", hub.task(), "message", "clean up", "driver", "gemini"));
    Event requested = await("turn.permission_requested");
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "deny", "message", "not now"));
    Event ended = await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    assertThat(build).isDirectory();
    assertThat(hub.transcriptTypes()).filteredOn("turn.permission_denied"::equals).hasSize(1);
    assertThat(last("turn.tool_result").get("is_error").asBoolean()).isTrue();
    assertThat(last("turn.tool_result").get("output").asText()).startsWith("permission denied: denied by ");
    assertThat(contents(server.request(1))).contains("canceled by the user");
  }

  @Test
  void stopMidStreamEndsTheTurnAsStoppedAndLeavesNoProcess() {
    server.enqueue(FakeGeminiServer.stall("Thinking about it"));
    hub.http().op("turn_start", map("task", hub.task(), "message", "hi", "driver", "gemini"));
    hub.events().find("the first text delta", TURN, event -> event.type().equals("turn.text_delta"));

    long started = System.nanoTime();
    JsonNode stopped = hub.http().op("turn_stop", map("task", hub.task()));

    assertThat(stopped.at("/turn/status").asText()).isEqualTo("stopped");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    assertThat(hub.transcriptTypes()).doesNotContain("turn.error", "turn.result");
    // tearDown asserts that no process is left
  }

  @Test
  void aLaterTurnLoadsTheStoredSessionWithoutReplayingIt() throws IOException {
    server.enqueue(text("Hello ", "world"), text("Second answer"));
    hub.http().op("turn_start", map("task", hub.task(), "message", "hi", "driver", "gemini"));
    String first = await("turn.session").data().get("session_id").asText();
    await("turn.ended");
    backdateGeminiSessions();

    hub.http().op("turn_start", map("task", hub.task(), "message", "and now?", "driver", "gemini"));
    String second = await("turn.session").data().get("session_id").asText();
    Event ended = await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    assertThat(second).isEqualTo(first);
    // The model saw the first exchange; the replayed history did not leak into the second turn's answer.
    assertThat(contents(server.request(1))).contains("Hello world").contains("and now?");
    assertThat(last("turn.message").get("text").asText()).isEqualTo("Second answer");
  }

  @Test
  void aSessionThatCannotBeLoadedStartsFreshSeededWithTheSummaries() throws Exception {
    server.enqueue(text("Fresh start"));
    RecordingTurnContext context = new RecordingTurnContext(0);

    gemini.driver().run(new TurnRequest(1, 7, "web", hub.project(), "go on", "Task #7: Say hello",
        List.of("We renamed the greeting to salute."), "no-such-session", null, null, false), context);

    TurnEvent.SessionStarted session = context.events(TurnEvent.SessionStarted.class).get(0);
    assertThat(session.sessionId()).isNotEqualTo("no-such-session");
    assertThat(contents(server.request(0)))
        .contains("Task #7: Say hello").contains("We renamed the greeting to salute.").contains("go on");
    assertThat(context.shape()).isEqualTo("turn.session turn.message turn.usage turn.result");
  }

  @Test
  void anApiErrorFailsTheTurnWithGeminisMessage() {
    server.enqueue(apiError(400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT"));

    hub.http().op("turn_start", map("task", hub.task(), "message", "hi", "driver", "gemini"));
    Event ended = await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("failed");
    assertThat(hub.transcriptTypes()).filteredOn("turn.error"::equals).hasSize(1);
    assertThat(last("turn.error").get("message").asText())
        .startsWith("Gemini CLI answered session/prompt with an error: ")
        .contains("API key not valid");
  }

  /**
   * Gemini CLI retries a failing endpoint on its own for minutes, saying nothing on ACP meanwhile: the
   * driver's endpoint deadline ends the turn, naming the agent and the deadline, and leaves no process.
   */
  @Test
  void anEndpointGeminiKeepsRetryingEndsTheTurnAtTheDriversDeadline() throws Exception {
    // Nothing scripted: every model request gets a 500, which Gemini retries with backoff.
    AcpDriver driver = new AcpDriver(gemini.config(), OfflineGemini.tuning(LineObserver.NONE).withEndpointDeadline(Duration.ofSeconds(4)));
    RecordingTurnContext context = new RecordingTurnContext(0);
    long started = System.nanoTime();

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> driver.run(
            new TurnRequest(1, 7, "web", hub.project(), "hi", "Task #7", List.of(), null, null, null, false), context))
        .isInstanceOf(AcpAgentException.class)
        .hasMessageStartingWith("Gemini CLI heard nothing from its model for 4 s");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(60));
    assertThat(server.requests()).isNotEmpty();
  }

  /**
   * The agent calls the hub's MCP tool {@code suggest_task} and the card lands on the board as {@code
   * agent:<task>}: a hub with its MCP endpoint, whose task-scoped endpoint reaches Gemini as an HTTP MCP
   * server with the task's token (never on a command line); the gate asks about the call under the tool's
   * own name.
   */
  @Test
  void theAgentCallsSuggestTaskAndTheCardLandsOnTheBoardAsTheAgent() {
    startHub(true);
    server.enqueue(FakeGeminiServer.callOffered("suggest_task", "{\"project\": \"web\", \"title\": \"Add a dark mode\"}"), text("Suggested."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "suggest a follow-up", "driver", "gemini"));
    Event requested = await("turn.permission_requested");
    assertThat(requested.data().get("tool").asText()).isEqualTo("suggest_task");
    // What will be filed is on the decision, not only the tool's name.
    assertThat(requested.data().get("description").asText())
        .isEqualTo("Call suggest_task (roundhouse MCP Server) with {\"project\":\"web\",\"title\":\"Add a dark mode\"}");
    assertThat(requested.data().at("/input/arguments/title").asText()).isEqualTo("Add a dark mode");
    assertThat(ProcessHandle.current().descendants().map(child -> child.info().commandLine().orElse("")))
        .as("no command line carries the token").noneMatch(line -> line.contains("Bearer"));
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "allow_once"));
    Event ended = await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    Event created = hub.events().find("the suggested task", TURN,
        event -> event.type().equals("task.created") && !Long.valueOf(hub.task()).equals(event.taskId()));
    assertThat(created.actor().toString()).isEqualTo("agent:" + hub.task());
    JsonNode card = hub.http().op("task_get", map("task", created.taskId()));
    assertThat(card.toString()).contains("Add a dark mode");
    assertThat(card.at("/task/suggested").asBoolean(card.path("suggested").asBoolean())).isTrue();
    assertThat(contents(server.request(1))).contains("suggest_task filed task");
    assertThat(last("turn.tool_result").get("is_error").asBoolean()).isFalse();
  }

  /**
   * A face's (an editor's) MCP server reaches Gemini for real: the turn is given the notes stdio server of the
   * editor tests ({@code lsp-bridge/src/test/node/notes-server.mjs}, a secret in its env); Gemini starts it and
   * offers its tool to the model, which calls it; the hub's gate asks first; the tool's answer (which proves the
   * server got the secret, without echoing it) goes back to the model. The secret is not in the transcript.
   */
  @Test
  void anEditorsMcpServerGivenToTheTurnIsCalledThroughTheGate() {
    NodeProject notes = NodeProject.installed("lsp-bridge", "src", "test", "node");
    String secret = "s3cret-notes-token-4711";
    server.enqueue(FakeGeminiServer.callOffered("lookup_note", "{\"topic\": \"trains\"}"), text("The note is about trains."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "what does the note on trains say?", "driver", "gemini",
        "mcp_servers", List.of(map("name", "notes", "command", "node",
            "args", List.of(notes.folder().resolve("notes-server.mjs").toString()), "env", map("NOTES_TOKEN", secret)))));
    Event requested = await("turn.permission_requested");
    assertThat(requested.data().get("tool").asText()).isEqualTo("lookup_note");
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "allow_once"));
    Event ended = await("turn.ended");

    assertThat(ended.data().get("status").asText()).as("%s", hub.transcript()).isEqualTo("completed");
    assertThat(contents(server.request(1))).contains("note on trains: the token has " + secret.length() + " characters (over stdio)");
    assertThat(hub.transcript().toString()).doesNotContain(secret);
  }

  /**
   * Gemini CLI 0.61.0 names a session's file by the minute it started, and {@code session/load} first
   * writes a fresh header to that same name, wiping the conversation it then fails to find ("No previous
   * sessions found"). A user who comes back a minute later does not hit this; the test moves the files to
   * an earlier minute to be that user.
   */
  private void backdateGeminiSessions() throws IOException {
    try (Stream<Path> files = Files.walk(gemini.home().resolve(".gemini/tmp"))) {
      for (Path file : files.filter(path -> path.getFileName().toString().startsWith("session-")).toList()) {
        String name = file.getFileName().toString().replaceFirst("T\\d\\d-\\d\\d-", "T00-00-");
        Files.move(file, file.resolveSibling(name));
      }
    }
  }

  /**
   * The benchmark for the report: the hub-added latency from a line on Gemini's stdout (read by the driver)
   * to the text delta reaching an SSE viewer of the task, over a few hundred deltas; and the driver's heap
   * per lingering session next to the CLI's resident memory.
   */
  @Test
  void benchmarkLineToViewerLatencyAndMemoryPerSession() throws Exception {
    int count = 300;
    List<String> pieces = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pieces.add(String.format("p%04d ", i));
    }
    java.util.Map<String, Long> readAt = new java.util.concurrent.ConcurrentHashMap<>();
    lines = (nanos, line) -> {
      if (line.contains("\"agent_message_chunk\"")) {
        readAt.put(dev.roundhouse.hub.core.Json.read(line, JsonNode.class).at("/params/update/content/text").asText(), nanos);
      }
    };
    server.enqueue(FakeGeminiServer.pacedText(3, pieces));

    java.util.Map<String, Long> viewedAt = new java.util.HashMap<>();
    String stream = "/api/tasks/" + hub.task() + "/stream";
    try (dev.roundhouse.hub.testing.SseTestClient viewer = dev.roundhouse.hub.testing.SseTestClient.open(hub.http(), stream)) {
      hub.http().op("turn_start", map("task", hub.task(), "message", "stream", "driver", "gemini"));
      while (viewedAt.size() < count) {
        dev.roundhouse.hub.testing.SseTestClient.SseEvent event = viewer.next(TURN);
        long now = System.nanoTime();
        if (event.event().equals("turn.text_delta")) {
          viewedAt.put(event.json().at("/data/text").asText(), now);
        }
      }
    }
    await("turn.ended");
    List<Long> micros = new ArrayList<>();
    viewedAt.forEach((text, at) -> micros.add((at - readAt.get(text)) / 1000));
    java.util.Collections.sort(micros);
    long p50 = micros.get(micros.size() / 2);
    long p99 = micros.get((int) Math.ceil(micros.size() * 0.99) - 1);
    System.err.printf("BENCHMARK acp line->SSE viewer latency over %d deltas: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
        micros.size(), p50 / 1000.0, p99 / 1000.0, micros.get(micros.size() - 1) / 1000.0);
    assertThat(p50).as("p50 in microseconds").isLessThan(50_000);

    // Memory: two sessions lingering at once, driven directly; the heap they hold against the CLIs' RSS.
    java.lang.management.MemoryMXBean memory = java.lang.management.ManagementFactory.getMemoryMXBean();
    long before = settledHeap(memory);
    int threadsBefore = java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount();
    List<RecordingTurnContext> contexts = List.of(new RecordingTurnContext(0).holdLinger(), new RecordingTurnContext(0).holdLinger());
    List<Thread> sessions = new ArrayList<>();
    server.enqueue(text("one"), text("two"));
    for (RecordingTurnContext context : contexts) {
      AcpDriver driver = gemini.driver();
      sessions.add(Thread.ofVirtual().start(() -> {
        try {
          driver.run(new TurnRequest(1, 7, "web", hub.project(), "hi", "Task", List.of(), null, null, null, false), context);
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }));
    }
    for (RecordingTurnContext context : contexts) {
      context.awaitDriverWaiting(TURN);
    }
    long during = settledHeap(memory);
    long cliKib = ProcessHandle.current().descendants().mapToLong(child -> Math.max(0, dev.roundhouse.drivers.process.AgentProcess.residentKib(child.pid()))).sum();
    int platformThreads = java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount() - threadsBefore;
    contexts.forEach(RecordingTurnContext::endLinger);
    for (Thread session : sessions) {
      session.join(TURN.toMillis());
    }
    System.err.printf("BENCHMARK acp memory per lingering session: driver heap %.1f KiB, %.1f platform thread(s); Gemini CLI RSS %.1f MiB%n",
        (during - before) / 2 / 1024.0, platformThreads / 2.0, cliKib / 2 / 1024.0);
    assertThat(cliKib).isPositive();
  }

  private static long settledHeap(java.lang.management.MemoryMXBean memory) {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
