package dev.roundhouse.hub.turns;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.spi.ConversationEntry;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link TurnContext#history()}: the task's conversation before the turn, built from the stored transcript, current generation only. */
class TurnHistoryTest {
  private final List<List<ConversationEntry>> seen = new CopyOnWriteArrayList<>();
  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;
  private long task;

  /** Records what history it was given, then answers with a thought, a tool call and its result, and a message. */
  private void answer(TurnRequest request, TurnContext context) {
    seen.add(context.history());
    context.emit(new TurnEvent.SessionStarted("s-" + request.turnId(), "test-model"));
    context.emit(new TurnEvent.Thought("thinking about " + request.message()));
    context.emit(new TurnEvent.TextDelta("Looking."));
    context.emit(new TurnEvent.AssistantMessage("Looking."));
    context.emit(new TurnEvent.ToolCall("call-" + request.turnId(), "Read", JsonNodeFactory.instance.objectNode().put("path", "a.txt")));
    context.requestPermission(new PermissionRequest("call-" + request.turnId(), "Read", JsonNodeFactory.instance.objectNode(), "read a.txt", null));
    context.emit(new TurnEvent.ToolResult("call-" + request.turnId(), "contents of a.txt", false));
    context.emit(new TurnEvent.AssistantMessage("Answered " + request.message()));
    context.emit(new TurnEvent.Usage(10, 5, null, false));
    context.emit(new TurnEvent.Result("end_turn", "Answered " + request.message()));
    seen.add(context.history()); // still nothing of this turn's own
  }

  @BeforeEach
  void start() {
    hub = TestHub.withDrivers(c -> c, List.of(new TestDriver("echo", false, this::answer)));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", "echo"));
    task = http.op("task_create", map("project", "web", "title", "Fix login")).get("id").asLong();
  }

  @AfterEach
  void stop() {
    events.close();
    hub.close();
  }

  private long turn(String message) {
    long turn = http.op("turn_start", map("task", task, "message", message)).at("/turn/id").asLong();
    assertThat(events.await("turn.ended", task).data().get("status").asText()).isEqualTo("completed");
    return turn;
  }

  @Test
  void theHistoryHoldsEarlierTurnsOfTheGenerationWithToolCallsAndResultsButNotThisTurn() {
    long first = turn("first");
    turn("second");

    assertThat(seen.get(0)).as("a first turn has no history").isEmpty();
    assertThat(seen.get(1)).as("nor does it see its own events").isEmpty();
    assertThat(seen.get(2)).containsExactly(
        new ConversationEntry.UserMessage("first"),
        new ConversationEntry.AssistantMessage("Looking."),
        new ConversationEntry.ToolCall("call-" + first, "Read", JsonNodeFactory.instance.objectNode().put("path", "a.txt")),
        new ConversationEntry.ToolResult("call-" + first, "contents of a.txt", false),
        new ConversationEntry.AssistantMessage("Answered first"));
    assertThat(seen.get(3)).isEqualTo(seen.get(2));
  }

  @Test
  void afterTaskClearTheHistoryStartsAgainAndHoldsOnlyTheNewGeneration() {
    turn("before the clear");
    http.op("task_clear", map("task", task));
    turn("after the clear");
    turn("and again");

    assertThat(seen.get(2)).as("the summary travels in priorSummaries, not in the history").isEmpty();
    assertThat(seen.get(4)).startsWith(new ConversationEntry.UserMessage("after the clear")).hasSize(5)
        .doesNotContain(new ConversationEntry.UserMessage("before the clear"));
  }

  @Test
  void entriesAreBuiltFromTheStoredEventsInOrder() {
    var data = JsonNodeFactory.instance;
    List<Event> stored = List.of(
        event("turn.user_message", data.objectNode().put("turn", 1).put("text", "hi")),
        event("turn.text_delta", data.objectNode().put("turn", 1).put("text", "he")),
        event("turn.message", data.objectNode().put("turn", 1).put("text", "hello")),
        event("turn.tool_call", data.objectNode().put("turn", 1).put("call_id", "c1").put("tool", "run_command").put("input", "not json")),
        event("turn.tool_result", data.objectNode().put("turn", 1).put("call_id", "c1").put("output", "boom").put("is_error", true)),
        event("turn.user_message", data.objectNode().put("turn", 2).put("text", "current")));

    assertThat(ConversationHistory.of(stored, 2)).containsExactly(
        new ConversationEntry.UserMessage("hi"),
        new ConversationEntry.AssistantMessage("hello"),
        new ConversationEntry.ToolCall("c1", "run_command", data.textNode("not json")),
        new ConversationEntry.ToolResult("c1", "boom", true));
  }

  private static Event event(String type, ObjectNode data) {
    return new Event(1, type, Instant.EPOCH, Actor.agent(1), 1L, 1L, data);
  }
}
