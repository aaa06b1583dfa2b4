package dev.roundhouse.drivers.script;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Plays scripts into one turn's {@link TurnContext}: one player per turn, answering the turn's first
 * message and, when the session lingers, each later one.
 *
 * <p>Streamed {@code text} steps collect into a pending message that the first step of another kind (or
 * the end of the answer) completes as an {@link TurnEvent.AssistantMessage}; {@code delay_ms} and {@code
 * repeat} do not interrupt it. A user's answer to {@code ask_user} replaces {@code {{answer}}} in later
 * text.
 *
 * <p>Not thread-safe: confined to the turn's thread. The one exception is the stop callback, which only
 * counts down a latch that waits observe.
 */
final class ScriptPlayer {
  static final String ASK_TOOL = "AskUserQuestion";
  static final String ANSWER = "{{answer}}";
  static final String NO_ANSWER = "no answer";
  /** How often a wait looks at {@link TurnContext#isStopped()} besides being woken by the stop callback. */
  private static final long STOP_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final long turnId;
  private final TurnContext context;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final StringBuilder pendingText = new StringBuilder();
  private long calls;
  private String lastMessage;
  private String answer;

  ScriptPlayer(long turnId, TurnContext context) {
    this.turnId = turnId;
    this.context = context;
    context.onStop(stopped::countDown);
  }

  /** Answers one message: plays the steps, then a result unless the script played its own. */
  void play(Script script) throws InterruptedException {
    lastMessage = null;
    boolean ended = play(script.steps());
    if (!ended) {
      completeText();
      emit(new TurnEvent.Result("end_turn", lastMessage));
    }
  }

  /** Plays steps in order; true when a {@code result} step ended the answer. */
  private boolean play(List<Step> steps) throws InterruptedException {
    for (Step step : steps) {
      if (context.isStopped()) {
        throw new TurnStoppedException(turnId);
      }
      if (!step.continuesText()) {
        completeText();
      }
      if (play(step)) {
        return true;
      }
    }
    return false;
  }

  private boolean play(Step step) throws InterruptedException {
    switch (step) {
      case Step.Text text -> {
        String fragment = fill(text.text());
        pendingText.append(fragment);
        emit(new TurnEvent.TextDelta(fragment));
      }
      case Step.Message message -> message(fill(message.text()));
      case Step.Tool tool -> {
        return tool(tool);
      }
      case Step.AskUser ask -> askUser(ask);
      case Step.Usage usage ->
          emit(new TurnEvent.Usage(usage.inputTokens(), usage.outputTokens(), usage.costUsd(), usage.costEstimated(),
              usage.contextTokens(), usage.contextWindow()));
      case Step.Delay delay -> pause(delay.millis());
      case Step.Repeat repeat -> {
        for (int i = 0; i < repeat.times(); i++) {
          if (play(repeat.steps())) {
            return true;
          }
        }
      }
      case Step.CallOp call -> callOp(call);
      case Step.Error error -> emit(new TurnEvent.Error(fill(error.message())));
      case Step.Thought thought -> emit(new TurnEvent.Thought(fill(thought.text())));
      case Step.Plan plan -> emit(new TurnEvent.Plan(plan.entries()));
      case Step.Fail fail -> throw new RoundhouseException("script_failed", fill(fail.message()));
      case Step.Hang hang -> {
        pause(Long.MAX_VALUE);
        throw new IllegalStateException("a hang step ended without a stop");
      }
      case Step.Result result -> {
        emit(new TurnEvent.Result(result.stopReason(), result.text() == null ? lastMessage : fill(result.text())));
        return true;
      }
    }
    return false;
  }

  private boolean tool(Step.Tool tool) throws InterruptedException {
    String callId = tool.callId() != null ? tool.callId() : nextCallId();
    emit(new TurnEvent.ToolCall(callId, tool.tool(), tool.input()));
    if (tool.ask()) {
      String description = tool.description() != null ? tool.description() : describe(tool);
      PermissionVerdict verdict =
          context.requestPermission(new PermissionRequest(callId, tool.tool(), tool.input(), description, tool.command()));
      if (context.isStopped()) {
        throw new TurnStoppedException(turnId);
      }
      if (!verdict.allowed()) {
        return play(tool.denied()); // the gate has recorded the denial (turn.permission_denied)
      }
    }
    for (String chunk : tool.output()) {
      emit(new TurnEvent.ToolOutputDelta(callId, fill(chunk)));
    }
    emit(new TurnEvent.ToolResult(callId, fill(tool.result()), tool.error()));
    return false;
  }

  private void askUser(Step.AskUser ask) {
    String callId = nextCallId();
    ObjectNode input = JsonNodeFactory.instance.objectNode();
    input.put("question", ask.question());
    ArrayNode options = input.putArray("options");
    ask.options().forEach(options::add);
    emit(new TurnEvent.ToolCall(callId, ASK_TOOL, input));
    Optional<String> reply = context.ask(ask.question(), ask.options());
    if (context.isStopped()) {
      throw new TurnStoppedException(turnId);
    }
    answer = reply.orElse(NO_ANSWER);
    emit(new TurnEvent.ToolResult(callId, answer, reply.isEmpty()));
  }

  private void callOp(Step.CallOp call) {
    String callId = nextCallId();
    emit(new TurnEvent.ToolCall(callId, call.operation(), call.input()));
    JsonNode output;
    try {
      output = context.callTool(call.operation(), call.input());
    } catch (TurnStoppedException e) {
      throw e;
    } catch (RoundhouseException e) {
      emit(new TurnEvent.ToolResult(callId, e.getMessage(), true));
      return;
    }
    emit(new TurnEvent.ToolResult(callId, output == null ? "null" : output.toString(), false));
  }

  private void message(String text) {
    emit(new TurnEvent.AssistantMessage(text));
    lastMessage = text;
  }

  /** Completes a run of streamed text as one assistant message. */
  private void completeText() {
    if (!pendingText.isEmpty()) {
      String text = pendingText.toString();
      pendingText.setLength(0);
      message(text);
    }
  }

  /** Waits {@code millis}, or until the turn is stopped, then throwing {@link TurnStoppedException}. */
  private void pause(long millis) throws InterruptedException {
    long start = System.nanoTime();
    long total = millis >= Long.MAX_VALUE / 1_000_000 ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(millis);
    while (true) {
      if (context.isStopped()) {
        throw new TurnStoppedException(turnId);
      }
      long left = total - (System.nanoTime() - start);
      if (left <= 0) {
        return;
      }
      boolean woken;
      try {
        woken = stopped.await(Math.min(left, STOP_POLL_NANOS), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        if (context.isStopped()) {
          throw new TurnStoppedException(turnId);
        }
        throw e;
      }
      if (woken) {
        throw new TurnStoppedException(turnId);
      }
    }
  }

  private void emit(TurnEvent event) {
    context.emit(event);
  }

  private String nextCallId() {
    return "call-" + ++calls;
  }

  private String fill(String text) {
    return answer == null || !text.contains(ANSWER) ? text : text.replace(ANSWER, answer);
  }

  private static String describe(Step.Tool tool) {
    if (tool.command() != null) {
      return "Run: " + tool.command();
    }
    String input = tool.input().isEmpty() ? "" : " " + tool.input();
    String line = tool.tool() + input;
    return line.length() > 120 ? line.substring(0, 117) + "..." : line;
  }
}
