package dev.roundhouse.hub.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.List;

/**
 * The common turn-event contract: what every driver emits, whatever its agent's protocol. The runner
 * persists each event (except {@link TextDelta}, which is published only) before any viewer sees it.
 * Immutable.
 */
public sealed interface TurnEvent {

  /** The event type on the wire and in the store, such as {@code turn.tool_call}. */
  String type();

  /** True for events that are published but not stored (they are summed up by a later event). */
  default boolean isTransient() {
    return false;
  }

  /** The agent's session is open; {@code sessionId} resumes it later when the driver supports resume. */
  record SessionStarted(String sessionId, String model) implements TurnEvent {
    @Override
    public String type() {
      return "turn.session";
    }
  }

  /** A fragment of assistant text as it streams; the {@link AssistantMessage} that follows holds it all. */
  record TextDelta(String text) implements TurnEvent {
    public TextDelta {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String type() {
      return "turn.text_delta";
    }

    @Override
    public boolean isTransient() {
      return true;
    }
  }

  /** A complete assistant message. */
  record AssistantMessage(String text) implements TurnEvent {
    public AssistantMessage {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String type() {
      return "turn.message";
    }
  }

  /**
   * The agent's reasoning as it chooses to show it (a thinking block, a reasoning summary): stored, shown
   * apart from its answer, never sent back to the agent as if the user had read it.
   */
  record Thought(String text) implements TurnEvent {
    public Thought {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String type() {
      return "turn.thought";
    }
  }

  /** One entry of a {@link Plan}: what, how far ({@code pending}, {@code in_progress}, {@code completed}), how important ({@code high}, {@code medium}, {@code low}). */
  record PlanEntry(String content, String status, String priority) {
    public PlanEntry {
      Objects.requireNonNull(content, "content");
      status = status == null ? "pending" : status;
      priority = priority == null ? "medium" : priority;
    }
  }

  /** The agent's plan (a to-do list): the whole list each time, replacing the one before. */
  record Plan(List<PlanEntry> entries) implements TurnEvent {
    public Plan {
      entries = List.copyOf(entries);
    }

    @Override
    public String type() {
      return "turn.plan";
    }
  }

  /** The agent calls a tool. */
  record ToolCall(String callId, String tool, JsonNode input) implements TurnEvent {
    public ToolCall {
      Objects.requireNonNull(callId, "callId");
      Objects.requireNonNull(tool, "tool");
    }

    @Override
    public String type() {
      return "turn.tool_call";
    }
  }

  /** Output of a running tool, as it arrives. */
  record ToolOutputDelta(String callId, String text) implements TurnEvent {
    @Override
    public String type() {
      return "turn.tool_output";
    }
  }

  /** A tool finished. */
  record ToolResult(String callId, String output, boolean isError) implements TurnEvent {
    @Override
    public String type() {
      return "turn.tool_result";
    }
  }

  /**
   * The agent asked to use a tool and the gate parked it on a human. Emitted by the runner (drivers call
   * {@link TurnContext#requestPermission}).
   */
  record PermissionRequested(long decision, String tool, JsonNode input, String description) implements TurnEvent {
    @Override
    public String type() {
      return "turn.permission_requested";
    }
  }

  /** A tool use was refused: by the gate, by a human, or by the agent's own rules. */
  record PermissionDenied(String callId, String tool, String reason) implements TurnEvent {
    @Override
    public String type() {
      return "turn.permission_denied";
    }
  }

  /**
   * Tokens used and what they cost; {@code costEstimated} when the driver computed the cost itself. When the
   * agent says so, {@code contextTokens} is how much of the model's context window ({@code contextWindow}
   * tokens) the conversation now fills; both null otherwise.
   */
  record Usage(long inputTokens, long outputTokens, Double costUsd, boolean costEstimated, Long contextTokens, Long contextWindow)
      implements TurnEvent {
    /** Usage without context-window figures. */
    public Usage(long inputTokens, long outputTokens, Double costUsd, boolean costEstimated) {
      this(inputTokens, outputTokens, costUsd, costEstimated, null, null);
    }

    @Override
    public String type() {
      return "turn.usage";
    }
  }

  /**
   * The driver left the oldest part of the task's conversation out of what it sends its agent, to fit the
   * context window: {@code droppedMessages} of the earlier messages were dropped (whole exchanges, a tool call
   * never without its result), {@code keptMessages} were kept; {@code budgetChars} is the budget;
   * {@code text} says so for a human. The stored conversation is unchanged.
   */
  record ContextTrimmed(int droppedMessages, int keptMessages, long budgetChars, String text) implements TurnEvent {
    public ContextTrimmed {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String type() {
      return "turn.context_trimmed";
    }
  }

  /**
   * The agent has heard nothing from its model for {@code silentSeconds} while it waited on no one (it is most
   * likely retrying a failing endpoint, which agent CLIs do quietly for minutes); the driver ends the turn if
   * nothing comes within {@code endsInSeconds}. {@code text} says so for a human. Progress, not an error.
   */
  record EndpointSilent(long silentSeconds, long endsInSeconds, String text) implements TurnEvent {
    public EndpointSilent {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String type() {
      return "turn.endpoint_silent";
    }
  }

  /** The agent finished answering the current message. */
  record Result(String stopReason, String text) implements TurnEvent {
    @Override
    public String type() {
      return "turn.result";
    }
  }

  /** Something went wrong; the message is for a human and names what. */
  record Error(String message) implements TurnEvent {
    public Error {
      Objects.requireNonNull(message, "message");
    }

    @Override
    public String type() {
      return "turn.error";
    }
  }
}
