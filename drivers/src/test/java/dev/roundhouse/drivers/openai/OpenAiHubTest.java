package dev.roundhouse.drivers.openai;

import static dev.roundhouse.drivers.openai.FakeModelServer.status;
import static dev.roundhouse.drivers.openai.FakeModelServer.streamText;
import static dev.roundhouse.drivers.openai.FakeModelServer.streamToolCall;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.testing.DriverHub;
import dev.roundhouse.hub.events.Event;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** End to end: a real hub (store, runner, gate, HTTP API) running the driver against the fake model server. */
@ExtendWith(LeakCheck.class)
class OpenAiHubTest {
  static final String KEY = "sk-test-0123456789abcdefKEY";

  @TempDir Path driverHome;
  final FakeModelServer server = FakeModelServer.start();
  final RecordingSleeper sleeper = new RecordingSleeper();
  DriverHub hub;

  @BeforeEach
  void setUp() {
    hub = DriverHub.of(driver(Map.of())).start();
  }

  private OpenAiDriver driver(Map<String, String> extraEnvironment) {
    Map<String, String> env = new HashMap<>(
        Map.of("ROUNDHOUSE_OPENAI_BASE_URL", server.baseUrl(), "ROUNDHOUSE_OPENAI_API_KEY", KEY, "ROUNDHOUSE_OPENAI_MODEL", "test-model"));
    env.putAll(extraEnvironment);
    return new OpenAiDriver(env, driverHome,
        new OpenAiDriver.Tuning(sleeper, () -> 0L, Clock.systemUTC(), RetryPolicy.DEFAULT, 50, Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofSeconds(5), warning -> {}));
  }

  /** Runs one turn of {@code message} on the task and waits for it to end completed. */
  private void turn(String message) {
    hub.http().op("turn_start", map("task", hub.task(), "message", message, "driver", "openai"));
    assertThat(hub.await("turn.ended").data().get("status").asText()).isEqualTo("completed");
  }

  private static List<String> roles(JsonNode messages) {
    return messages.findValuesAsText("role");
  }

  @Test
  void aSecondMessageContinuesTheConversationWithTheToolCallAndItsResult() throws IOException {
    Files.writeString(hub.project().resolve("README.md"), "hello from the repo\n");
    server.enqueue(streamToolCall("call_1", "read_file", "{\"path\": \"README.md\"}"), streamText("It says hello."), streamText("You asked about the readme."));

    turn("what does the readme say?");
    turn("what did I ask you?");

    JsonNode messages = server.request(2).json().path("messages");
    assertThat(roles(messages)).containsExactly("system", "user", "assistant", "tool", "assistant", "user");
    assertThat(messages.get(1).path("content").asText()).isEqualTo("what does the readme say?");
    assertThat(messages.at("/2/tool_calls/0/id").asText()).isEqualTo("call_1");
    assertThat(messages.at("/2/tool_calls/0/function/name").asText()).isEqualTo("read_file");
    assertThat(messages.at("/2/tool_calls/0/function/arguments").asText()).isEqualTo("{\"path\":\"README.md\"}");
    assertThat(messages.get(3).path("tool_call_id").asText()).isEqualTo("call_1");
    assertThat(messages.get(3).path("content").asText()).isEqualTo("hello from the repo\n");
    assertThat(messages.get(4).path("content").asText()).isEqualTo("It says hello.");
    assertThat(messages.get(5).path("content").asText()).isEqualTo("what did I ask you?");
    List<String> sessions = new ArrayList<>();
    hub.transcript().forEach(entry -> {
      if (entry.get("type").asText().equals("turn.session")) {
        sessions.add(entry.at("/data/session_id").asText());
      }
    });
    assertThat(sessions).hasSize(2).as("one session per generation").containsOnly(sessions.getFirst());
    assertThat(hub.transcriptTypes()).doesNotContain("turn.context_trimmed");
  }

  @Test
  void afterTaskClearTheConversationStartsFreshFromTheSummary() {
    server.enqueue(streamText("Hello there."), streamText("Fresh start."));
    turn("say hello to the team");

    JsonNode cleared = hub.http().op("task_clear", map("task", hub.task()));
    turn("what now?");

    JsonNode messages = server.request(1).json().path("messages");
    assertThat(roles(messages)).containsExactly("system", "user");
    assertThat(messages.get(0).path("content").asText()).contains(cleared.get("summary").asText()).contains("Asked: say hello to the team");
    assertThat(messages.get(1).path("content").asText()).isEqualTo("what now?");
  }

  @Test
  void aConversationOverTheBudgetIsTrimmedAndTheTranscriptSaysSo() {
    hub.close();
    hub = DriverHub.of(driver(Map.of("ROUNDHOUSE_OPENAI_CONTEXT_CHARS", "15000"))).start();
    server.enqueue(streamText("That is long."), streamText("Short one."));
    turn("a long paste: " + "x".repeat(20_000));

    turn("a short question");

    JsonNode body = server.request(1).json();
    JsonNode messages = body.path("messages");
    assertThat(roles(messages)).containsExactly("system", "user");
    assertThat(messages.get(1).path("content").asText()).isEqualTo("a short question");
    assertThat((long) messages.toString().length() + body.path("tools").toString().length()).as("the request fits").isLessThanOrEqualTo(15_000);
    assertThat(messages.get(0).path("content").asText()).contains("left out to fit the context window");
    assertThat(hub.transcriptTypes()).containsSubsequence("turn.user_message", "turn.session", "turn.context_trimmed", "turn.message");
    JsonNode notice = hub.transcript().findParents("dropped_messages").getFirst();
    assertThat(notice.get("dropped_messages").asInt()).isEqualTo(2);
    assertThat(notice.get("kept_messages").asInt()).isZero();
    assertThat(notice.get("budget_chars").asLong()).isEqualTo(15_000);
    assertThat(notice.get("text").asText()).startsWith("Left the 1 oldest exchange of this task's conversation (2 messages, ");
  }

  @AfterEach
  void tearDown() {
    hub.close();
    server.close();
  }

  @Test
  void aTurnWritesAFileAfterTheUserAllowsIt() throws IOException {
    server.enqueue(streamToolCall("call_1", "write_file", "{\"path\": \"hello.txt\", \"content\": \"hello\\n\"}"), streamText("I wrote ", "hello.txt."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "please write hello.txt", "driver", "openai"));
    Event requested = hub.await("turn.permission_requested");
    assertThat(requested.data().get("tool").asText()).isEqualTo("write_file");
    assertThat(requested.data().get("description").asText()).isEqualTo("Create hello.txt (1 lines)");
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "allow_once"));
    Event ended = hub.await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    assertThat(Files.readString(hub.project().resolve("hello.txt"))).isEqualTo("hello\n");
    assertThat(hub.transcriptTypes()).containsExactly(
        "turn.started", "turn.user_message", "turn.session", "turn.usage", "turn.tool_call", "decision.opened",
        "turn.permission_requested", "decision.answered", "turn.tool_result", "turn.message", "turn.usage", "turn.result",
        "turn.ended");
    JsonNode entries = hub.transcript();
    assertThat(entries.get(8).at("/data/output").asText()).isEqualTo("created hello.txt: 1 lines, 6 bytes");
    assertThat(entries.get(9).at("/data/text").asText()).isEqualTo("I wrote hello.txt.");
    assertThat(entries.get(11).at("/data/stop_reason").asText()).isEqualTo("stop");
    // The system prompt carried the task.
    assertThat(server.request(0).json().at("/messages/0/content").asText()).contains("Say hello").contains("Write hello.txt");
    assertKeyIsNotInTheHome();
  }

  @Test
  void aDeniedToolIsRecordedOnceAndTheModelIsTold() {
    server.enqueue(streamToolCall("call_1", "run_command", "{\"command\": \"rm -rf /\"}"), streamText("Understood, I will not."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "clean up", "driver", "openai"));
    Event requested = hub.await("turn.permission_requested");
    assertThat(requested.data().get("command").asText()).isEqualTo("rm -rf /");
    hub.http().op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "deny", "message", "never"));
    Event ended = hub.await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    assertThat(hub.transcriptTypes()).filteredOn("turn.permission_denied"::equals).hasSize(1);
    assertThat(server.request(1).json().at("/messages/3/content").asText()).startsWith("permission to use run_command was denied: denied by ");
  }

  @Test
  void hubOperationsAreToolsTheModelCanCall() {
    server.enqueue(streamToolCall("call_1", "get_task", "{\"task\": " + hub.task() + "}"), streamText("The task is about hello."));

    hub.http().op("turn_start", map("task", hub.task(), "message", "what is this task?", "driver", "openai"));
    Event ended = hub.await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    List<String> offered = server.request(0).json().path("tools").findValuesAsText("name");
    assertThat(offered).contains("read_file", "run_command", "get_task", "list_tasks");
    JsonNode result = hub.transcript().findValues("output").get(0);
    assertThat(result.asText()).contains("\"title\":\"Say hello\"");
  }

  @Test
  void anEndpointFailureFailsTheTurnWithOneError() throws IOException {
    server.enqueue(status(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\"}}"));

    hub.http().op("turn_start", map("task", hub.task(), "message", "hi", "driver", "openai"));
    Event ended = hub.await("turn.ended");

    assertThat(ended.data().get("status").asText()).isEqualTo("failed");
    assertThat(hub.transcriptTypes()).filteredOn("turn.error"::equals).hasSize(1);
    JsonNode error = hub.transcript().findParents("message").get(0);
    assertThat(error.get("message").asText()).endsWith("answered 401: Incorrect API key provided: [redacted]");
    assertKeyIsNotInTheHome();
  }

  @Test
  void turnStopEndsAStalledStreamPromptly() {
    server.enqueue(FakeModelServer.stall("data: " + FakeModelServer.textChunk("Hel") + "\n\n"));
    hub.http().op("turn_start", map("task", hub.task(), "message", "hi", "driver", "openai"));
    server.awaitRequest(0, Duration.ofSeconds(10));

    long started = System.nanoTime();
    JsonNode stopped = hub.http().op("turn_stop", map("task", hub.task()));

    assertThat(stopped.at("/turn/status").asText()).isEqualTo("stopped");
    // The runner waits up to 10 s for a driver to wind down; this one does at once.
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    assertThat(hub.transcriptTypes()).doesNotContain("turn.error");
  }

  /** Neither the database (with its WAL) nor any other file in the hub's home holds the key. */
  private void assertKeyIsNotInTheHome() throws IOException {
    try (Stream<Path> files = Files.walk(hub.hub().home())) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).as(file.toString()).doesNotContain(KEY);
      }
    }
  }
}
