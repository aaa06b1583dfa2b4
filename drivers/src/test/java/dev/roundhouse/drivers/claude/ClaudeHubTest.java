package dev.roundhouse.drivers.claude;

import static dev.roundhouse.drivers.claude.FakeAnthropicServer.answer;
import static dev.roundhouse.drivers.claude.FakeAnthropicServer.failure;
import static dev.roundhouse.drivers.claude.FakeAnthropicServer.systemPrompt;
import static dev.roundhouse.drivers.claude.FakeAnthropicServer.toolUse;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.ChildProcesses;
import dev.roundhouse.drivers.testing.DriverHub;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end: a real hub (store, runner, gate, HTTP API) running the real {@code claude} against the fake API. */
class ClaudeHubTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  @TempDir Path home;
  final FakeAnthropicServer server = FakeAnthropicServer.start();
  DriverHub hub;

  @BeforeEach
  void setUp() {
    ClaudeDriver driver = new ClaudeDriver(
        OfflineClaude.settings(server, home, Duration.ofSeconds(8)), OfflineClaude.hubEnvironment(), ClaudeSession.EmitObserver.NONE);
    hub = DriverHub.of(driver).lingerTimeout(Duration.ofSeconds(2)).servingMcp().start();
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    hub.close();
    server.close();
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(15));
  }

  private Event await(String type) {
    return hub.await(type, LONG);
  }

  @Test
  void aToolCallWaitsForTheUsersAnswerThenRuns() throws Exception {
    server.enqueue(
        answer(toolUse("toolu_w1", "Write", "{\"file_path\": \"" + hub.project().resolve("hello.txt") + "\", \"content\": \"hello\\n\"}")),
        answer("I wrote hello.txt."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "please write hello.txt"));
    Event requested = await("turn.permission_requested");
    assertThat(requested.data().get("tool").asText()).isEqualTo("Write");
    assertThat(requested.data().get("description").asText()).isEqualTo("Write " + hub.project().resolve("hello.txt"));
    assertThat(hub.project().resolve("hello.txt")).as("nothing runs before the answer").doesNotExist();
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "allow_once"));
    Event ended = await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    assertThat(Files.readString(hub.project().resolve("hello.txt"))).isEqualTo("hello\n");
    assertThat(hub.transcriptTypes()).containsExactly(
        "turn.started", "turn.user_message", "turn.session", "turn.tool_call", "decision.opened", "turn.permission_requested",
        "decision.answered", "turn.tool_result", "turn.message", "turn.usage", "turn.result", "turn.lingering", "turn.ended");
    // The task reached Claude's system prompt.
    assertThat(systemPrompt(server.request(0))).contains("Task #" + hub.task() + ": Say hello").contains("Write hello.txt");
  }

  @Test
  void turnStopInterruptsAStreamingAnswerAndLeavesNoProcess() throws Exception {
    server.enqueue(FakeAnthropicServer.stall("Thinking ", "about it"));
    hub.http().op("turn_start", map("task", hub.task(), "message", "talk forever"));
    hub.events().find("a streamed delta", LONG, event -> event.type().equals("turn.text_delta"));

    long stopping = System.nanoTime();
    JsonNode stopped = hub.http().op("turn_stop", map("task", hub.task()));

    assertThat(stopped.at("/turn/status").asText()).isEqualTo("stopped");
    assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(5));
    assertThat(hub.transcriptTypes()).doesNotContain("turn.error", "turn.result");
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(5));
  }

  @Test
  void aLingeringSessionTakesTheNextMessageAndALaterTurnResumesIt() throws Exception {
    server.enqueue(answer("The code word is heron."), answer("Still heron."), answer("It was heron."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "remember the code word heron"));
    await("turn.lingering");
    JsonNode sent = hub.http().op("turn_send", map("task", hub.task(), "message", "what is it?"));
    assertThat(sent.get("delivery").asText()).isEqualTo("lingering");
    Event firstEnd = await("turn.ended");
    assertThat(firstEnd.data().get("status").asText()).isEqualTo("completed");
    List<String> firstTurn = hub.transcriptTypes();
    assertThat(firstTurn).filteredOn("turn.session"::equals).as("one process served both messages").hasSize(1);
    assertThat(firstTurn).filteredOn("turn.result"::equals).hasSize(2);
    String session = hub.transcript().findValue("session_id").asText();

    hub.http().op("turn_start", map("task", hub.task(), "message", "and now?"));
    Event secondEnd = await("turn.ended");

    assertThat(secondEnd.data().get("status").asText()).isEqualTo("completed");
    assertThat(hub.transcript().findValuesAsText("session_id")).containsOnly(session);
    assertThat(server.request(2).text()).contains("remember the code word heron", "Still heron.", "and now?");
  }

  @Test
  void anApiErrorFailsTheTurnWithTheApisMessage() {
    server.enqueue(failure(400, "invalid_request_error", "max_tokens is too large"));

    hub.http().op("turn_start", map("task", hub.task(), "message", "hello"));
    Event ended = await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("failed");
    assertThat(ended.data().get("reason").asText()).startsWith("Claude Code: the model API answered 400");
    assertThat(hub.transcriptTypes()).contains("turn.error").doesNotContain("turn.result");
  }

  @Test
  void aChangeToClaudesProjectSettingsParksTheNextTurn() throws Exception {
    server.enqueue(answer("First."));
    hub.http().op("turn_start", map("task", hub.task(), "message", "first"));
    assertThat(await("turn.ended").data().get("status").asText()).isEqualTo("completed");

    Files.createDirectories(hub.project().resolve(".claude"));
    Files.writeString(hub.project().resolve(".claude/settings.local.json"), "{\"permissions\":{\"allow\":[\"Bash(*)\"]}}");
    hub.http().op("turn_start", map("task", hub.task(), "message", "second"));
    JsonNode drift = await("decision.opened").data().get("decision");

    assertThat(drift.get("kind").asText()).isEqualTo("settings_drift");
    assertThat(drift.at("/request/files/0/path").asText()).endsWith(".claude/settings.local.json");
    hub.http().op("decision_answer", map("decision", drift.get("id").asLong(), "answer", "decline"));
    assertThat(await("turn.ended").data().get("status").asText()).isEqualTo("declined");
    assertThat(server.requests()).as("the agent never started").hasSize(1);
  }

  /**
   * The agent calls the hub's own MCP tool for real: Claude Code, given the hub's {@code /mcp} and its task
   * token, lists the hub's tools, asks the gate before {@code suggest_task} (a decision the user allows), and
   * the call files a suggestion on the board as {@code agent:<task>}.
   */
  @Test
  void theAgentCallsSuggestTaskAndItLandsOnTheBoardAsTheTasksAgent() {
    server.enqueue(
        answer(toolUse("toolu_m1", "mcp__roundhouse__suggest_task", "{\"project\": \"web\", \"title\": \"Write the README\"}")),
        answer("Suggested."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "suggest a follow-up task"));
    Event requested = await("turn.permission_requested");
    assertThat(requested.data().get("tool").asText()).isEqualTo("mcp__roundhouse__suggest_task");
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "allow_once"));
    assertThat(await("turn.ended").data().get("status").asText()).isEqualTo("completed");

    assertThat(server.request(0).text()).as("the hub's tools reached the model").contains("mcp__roundhouse__suggest_task");
    JsonNode suggestion = hub.http().op("task_list", map("project", "web")).findParents("title").stream()
        .filter(card -> card.path("title").asText().equals("Write the README")).findFirst().orElseThrow();
    assertThat(suggestion.path("suggested").asBoolean()).isTrue();
    assertThat(suggestion.path("created_by").asText()).isEqualTo("agent:" + hub.task());
    Event created = hub.events().find("the suggestion's task.created", LONG,
        event -> event.type().equals("task.created") && Long.valueOf(suggestion.path("id").asLong()).equals(event.taskId()));
    assertThat(created.actor()).isEqualTo(Actor.agent(hub.task()));
    assertThat(hub.transcript().findValuesAsText("output"))
        .anySatisfy(output -> assertThat(output).contains("suggest_task filed task " + suggestion.path("id").asLong() + " 'Write the README'"));
  }
}
