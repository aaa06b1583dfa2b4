package dev.roundhouse.drivers.script;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * One step of a {@link Script}, as parsed. The format is described in {@code docs/drivers/script.md}.
 * Immutable.
 */
sealed interface Step {

  /** The step's kind as written in a script, such as {@code text} or {@code tool}. */
  String kind();

  /**
   * True for steps that may sit inside a run of streamed text without ending it ({@code text}, {@code
   * delay_ms}, and {@code repeat}, whose own steps decide). Any other step first completes the run as an
   * assistant message.
   */
  default boolean continuesText() {
    return false;
  }

  /** A fragment of assistant text, streamed as a text delta. */
  record Text(String text) implements Step {
    public Text {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String kind() {
      return "text";
    }

    @Override
    public boolean continuesText() {
      return true;
    }
  }

  /** A complete assistant message, not streamed. */
  record Message(String text) implements Step {
    public Message {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String kind() {
      return "message";
    }
  }

  /**
   * A tool call: optionally gated by the permission gate, then its output and result.
   *
   * @param callId the call id, or null to number calls {@code call-1}, {@code call-2}, …
   * @param command for a shell tool, the command line the gate's rules match
   * @param description the line a human sees when asked, or null for one made from the tool and command
   * @param ask whether to ask the permission gate before "running"
   * @param output chunks of streamed output
   * @param result the tool's final result text
   * @param error whether the result is an error
   * @param denied steps played instead of the output and result when the gate denies the call
   */
  record Tool(
      String callId,
      String tool,
      JsonNode input,
      String command,
      String description,
      boolean ask,
      List<String> output,
      String result,
      boolean error,
      List<Step> denied)
      implements Step {
    public Tool {
      Objects.requireNonNull(tool, "tool");
      Objects.requireNonNull(input, "input");
      output = List.copyOf(output);
      Objects.requireNonNull(result, "result");
      denied = List.copyOf(denied);
    }

    @Override
    public String kind() {
      return "tool";
    }
  }

  /** A question for the user, with options to choose from or none for a free-text answer. */
  record AskUser(String question, List<String> options) implements Step {
    public AskUser {
      Objects.requireNonNull(question, "question");
      options = List.copyOf(options);
    }

    @Override
    public String kind() {
      return "ask_user";
    }
  }

  /** Tokens used and what they cost; a null cost reports none. */
  record Usage(long inputTokens, long outputTokens, Double costUsd, boolean costEstimated, Long contextTokens, Long contextWindow)
      implements Step {
    Usage(long inputTokens, long outputTokens, Double costUsd, boolean costEstimated) {
      this(inputTokens, outputTokens, costUsd, costEstimated, null, null);
    }

    @Override
    public String kind() {
      return "usage";
    }
  }

  /** A pause that ends promptly when the turn is stopped. */
  record Delay(long millis) implements Step {
    @Override
    public String kind() {
      return "delay_ms";
    }

    @Override
    public boolean continuesText() {
      return true;
    }
  }

  /** Plays {@code steps} {@code times} times over. */
  record Repeat(int times, List<Step> steps) implements Step {
    public Repeat {
      steps = List.copyOf(steps);
    }

    @Override
    public String kind() {
      return "repeat";
    }

    @Override
    public boolean continuesText() {
      return true;
    }
  }

  /** Calls a hub operation as the task's agent, recorded as a tool call and its result. */
  record CallOp(String operation, JsonNode input) implements Step {
    public CallOp {
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(input, "input");
    }

    @Override
    public String kind() {
      return "call_op";
    }
  }

  /** An error event; the turn goes on. */
  record Thought(String text) implements Step {
    public Thought {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String kind() {
      return "thought";
    }
  }

  record Plan(java.util.List<dev.roundhouse.hub.spi.TurnEvent.PlanEntry> entries) implements Step {
    public Plan {
      entries = java.util.List.copyOf(entries);
    }

    @Override
    public String kind() {
      return "plan";
    }
  }

  record Error(String message) implements Step {
    public Error {
      Objects.requireNonNull(message, "message");
    }

    @Override
    public String kind() {
      return "error";
    }
  }

  /** Fails the turn with this message. */
  record Fail(String message) implements Step {
    public Fail {
      Objects.requireNonNull(message, "message");
    }

    @Override
    public String kind() {
      return "fail";
    }
  }

  /** Blocks until the turn is stopped. */
  record Hang() implements Step {
    @Override
    public String kind() {
      return "hang";
    }
  }

  /**
   * Ends the answer to the current message with a result event; steps after it are not played.
   *
   * @param text the result's text, or null for the last assistant message
   */
  record Result(String stopReason, String text) implements Step {
    public Result {
      Objects.requireNonNull(stopReason, "stopReason");
    }

    @Override
    public String kind() {
      return "result";
    }
  }
}
