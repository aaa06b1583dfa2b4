package dev.roundhouse.drivers.script;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestHub;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The script driver under the hub's real runner, gate and decisions, driven over HTTP as a face would. */
class ScriptDriverHubTest {
  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;
  private long task;

  @BeforeEach
  void start() {
    hub = TestHub.withDrivers(config -> config, List.of(new ScriptDriver()));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "demo", "path", hub.folder("demo"), "default_agent", "script"));
    task = http.op("task_create", map("project", "demo", "title", "Fix the cart total")).get("id").asLong();
  }

  @AfterEach
  void stop() {
    events.close();
    hub.close();
  }

  @Test
  void theDemoRunsToCompletionWhenBashIsAllowed() {
    http.op("turn_start", map("task", task, "message", "script:demo"));

    Event requested = events.await("turn.permission_requested", task);
    assertThat(requested.data().get("tool").asText()).isEqualTo("Bash");
    assertThat(requested.data().get("command").asText()).isEqualTo("npm test");
    http.op("decision_answer", map("decision", requested.data().get("decision").asLong(), "answer", "allow_once"));
    Event ended = events.await("turn.ended", task);

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    List<String> types = transcriptTypes();
    assertThat(types).containsSubsequence(
        "turn.started", "turn.user_message", "turn.session", "turn.message", "turn.tool_call", "turn.tool_result",
        "turn.tool_call", "turn.permission_requested", "decision.answered", "turn.tool_output", "turn.tool_result",
        "turn.message", "turn.usage", "turn.result", "turn.ended");
    assertThat(types).doesNotContain("turn.permission_denied", "turn.error");
    assertThat(events.types()).contains("turn.text_delta");
    assertThat(http.op("decision_list", map()).get("pending").asInt()).isZero();
  }

  @Test
  void aDenialIsRecordedOnceAndTheDemoExplainsItself() {
    http.op("turn_start", map("task", task, "message", "script:demo"));

    long decision = events.await("turn.permission_requested", task).data().get("decision").asLong();
    http.op("decision_answer", map("decision", decision, "answer", "deny", "message", "not now"));
    Event ended = events.await("turn.ended", task);

    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    JsonNode transcript = http.op("task_transcript", map("task", task)).get("entries");
    List<JsonNode> denials = entries(transcript, "turn.permission_denied");
    assertThat(denials).singleElement().satisfies(d -> assertThat(d.at("/data/reason").asText()).contains("not now"));
    assertThat(entries(transcript, "turn.tool_output")).isEmpty();
    assertThat(entries(transcript, "turn.result").getFirst().at("/data/text").asText()).contains("I won't run the tests");
  }

  @Test
  void aQuestionIsADecisionWhoseAnswerReachesTheScript() {
    http.op("turn_start", map("task", task, "message",
        "{\"steps\": [{\"ask_user\": \"Which database?\", \"options\": [\"postgres\", \"sqlite\"]},"
            + " {\"message\": \"Using {{answer}}.\"}]}"));

    JsonNode decision = events.await("decision.opened", task).data().get("decision");
    assertThat(decision.get("kind").asText()).isEqualTo("question");
    http.op("decision_answer", map("decision", decision.get("id").asLong(), "answer", "sqlite"));
    events.await("turn.ended", task);

    JsonNode transcript = http.op("task_transcript", map("task", task)).get("entries");
    assertThat(entries(transcript, "turn.message").getFirst().at("/data/text").asText()).isEqualTo("Using sqlite.");
  }

  @Test
  void aHangingScriptStopsWhenTheTurnIsStopped() {
    http.op("turn_start", map("task", task, "message", "{\"steps\": [{\"message\": \"thinking\"}, {\"hang\": true}]}"));
    events.await("turn.message", task);

    JsonNode stopped = http.op("turn_stop", map("task", task));

    assertThat(stopped.at("/turn/status").asText()).isEqualTo("stopped");
    assertThat(events.await("turn.ended", task).data().get("status").asText()).isEqualTo("stopped");
  }

  @Test
  void aMalformedScriptFailsTheTurnNamingTheStep() {
    http.op("turn_start", map("task", task, "message", "{\"steps\": [{\"text\": \"a\"}, {\"tol\": \"Bash\"}]}"));

    Event ended = events.await("turn.ended", task);

    assertThat(ended.data().get("status").asText()).isEqualTo("failed");
    assertThat(ended.data().get("reason").asText()).startsWith("step 2: unknown step kind 'tol'");
  }

  @Test
  void aLingeringSessionAnswersTheNextMessageInTheSameTurn() {
    long turn = http.op("turn_start", map("task", task, "message", "{\"linger\": true, \"steps\": [{\"message\": \"ready\"}]}"))
        .at("/turn/id").asLong();
    events.await("turn.lingering", task);

    JsonNode sent = http.op("turn_send", map("task", task, "message", "{\"linger\": false, \"steps\": [{\"message\": \"bye\"}]}"));
    Event ended = events.await("turn.ended", task);

    assertThat(sent.get("delivery").asText()).isEqualTo("lingering");
    assertThat(ended.data().get("turn").asLong()).isEqualTo(turn);
    assertThat(ended.data().get("status").asText()).isEqualTo("completed");
    JsonNode transcript = http.op("task_transcript", map("task", task)).get("entries");
    assertThat(entries(transcript, "turn.message")).extracting(e -> e.at("/data/text").asText()).containsExactly("ready", "bye");
  }

  @Test
  void callOpRunsAHubOperationAsTheTasksAgent() {
    http.op("turn_start", map("task", task, "message",
        "{\"steps\": [{\"call_op\": \"get_task\", \"input\": {\"task\": " + task + "}}, {\"call_op\": \"no_such_op\"}]}"));
    events.await("turn.ended", task);

    List<JsonNode> results = entries(http.op("task_transcript", map("task", task)).get("entries"), "turn.tool_result");
    assertThat(results).hasSize(2);
    assertThat(results.get(0).at("/data/is_error").asBoolean()).isFalse();
    assertThat(results.get(0).at("/data/output").asText()).contains("Fix the cart total");
    assertThat(results.get(1).at("/data/is_error").asBoolean()).isTrue();
  }

  private List<String> transcriptTypes() {
    List<String> types = new ArrayList<>();
    http.op("task_transcript", map("task", task)).get("entries").forEach(e -> types.add(e.get("type").asText()));
    return types;
  }

  private static List<JsonNode> entries(JsonNode transcript, String type) {
    List<JsonNode> found = new ArrayList<>();
    transcript.forEach(e -> {
      if (e.get("type").asText().equals(type)) {
        found.add(e);
      }
    });
    return found;
  }
}
