package dev.roundhouse.hub.schedules;

import static dev.roundhouse.hub.testing.HttpTestClient.map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.InProcessHub;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.TestDriver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the deferred-start and dependents tests share: a hub on a {@link ManualClock}, its event recorder, and
 * the board's operations called as any actor. Not thread-safe; one per test.
 */
final class AutoStartHarness implements AutoCloseable {
  static final Instant T0 = Instant.parse("2030-01-02T08:00:00Z");
  static final Duration WAIT = Duration.ofSeconds(20);

  final InProcessHub hub;
  final EventRecorder events;

  AutoStartHarness(InProcessHub hub) {
    this.hub = hub;
    this.events = new EventRecorder(hub);
  }

  /** A driver whose turns answer at once, echoing the message. */
  static TestDriver echo() {
    return new TestDriver("echo", false, AutoStartHarness::answer);
  }

  static void answer(TurnRequest request, TurnContext context) {
    context.emit(new TurnEvent.AssistantMessage("You said: " + request.message()));
    context.emit(new TurnEvent.Result("end_turn", null));
  }

  static ManualClock clock() {
    return new ManualClock(T0);
  }

  JsonNode op(Actor actor, String name, Map<String, ?> input) {
    return hub.operations().invoke(name, actor, Json.tree(input));
  }

  JsonNode op(String name, Map<String, ?> input) {
    return op(Actor.USER, name, input);
  }

  /** Files a task on project web as the user; {@code fields} add to the title. */
  long task(String title, Object... fields) {
    Map<String, Object> input = new java.util.LinkedHashMap<>(map("project", "web", "title", title));
    for (int i = 0; i < fields.length; i += 2) {
      input.put((String) fields[i], fields[i + 1]);
    }
    return op("task_create", input).get("id").asLong();
  }

  JsonNode get(long task) {
    return op("task_get", map("task", task));
  }

  /** The types in the task's transcript, in order. */
  List<String> transcript(long task) {
    List<String> types = new ArrayList<>();
    op("task_transcript", map("task", task)).get("entries").forEach(e -> types.add(e.get("type").asText()));
    return types;
  }

  long turnsStarted(long task) {
    return transcript(task).stream().filter("turn.started"::equals).count();
  }

  /** The first turn the scheduler started on {@code task}, read already or still to come. */
  Event awaitSchedulerStart(long task) {
    return events.find(
        "a turn started by the scheduler on task " + task, WAIT,
        e -> e.type().equals("turn.started") && Long.valueOf(task).equals(e.taskId()) && e.actor().equals(Actor.SCHEDULER));
  }

  /** The message the turn that {@code started} began ran. */
  String messageOf(Event started) {
    long turn = started.data().get("turn").asLong();
    return events.find("the message of turn " + turn, WAIT,
        e -> e.type().equals("turn.user_message") && e.data().get("turn").asLong() == turn).data().get("text").asText();
  }

  /** The end of the latest turn read so far on {@code task} (waiting for one to start if none was read). */
  Event awaitEnd(long task) {
    events.find("a turn on task " + task, WAIT, e -> e.type().equals("turn.started") && Long.valueOf(task).equals(e.taskId()));
    long turn = events.seen().stream()
        .filter(e -> e.type().equals("turn.started") && Long.valueOf(task).equals(e.taskId()))
        .reduce((first, second) -> second).orElseThrow().data().get("turn").asLong();
    return events.find("turn.ended of turn " + turn + " on task " + task, WAIT,
        e -> e.type().equals("turn.ended") && e.data().get("turn").asLong() == turn);
  }

  /** Every turn a scheduler started on {@code task}, in what was read so far. */
  long schedulerStartsSeen(long task) {
    return events.seen().stream()
        .filter(e -> e.type().equals("turn.started") && Long.valueOf(task).equals(e.taskId()) && e.actor().equals(Actor.SCHEDULER))
        .count();
  }

  @Override
  public void close() {
    events.close();
  }
}
