package dev.roundhouse.hub.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One entry of a task's conversation as the hub stored it ({@link TurnContext#history()}): what the user
 * said, what the agent answered, which tools it called and what they returned. Built from the transcript's
 * {@code turn.user_message}, {@code turn.message}, {@code turn.tool_call} and {@code turn.tool_result} events;
 * everything else (thoughts, plans, usage, decisions) is left out. Immutable.
 */
public sealed interface ConversationEntry {

  /** A message the user sent (the message a turn answered). */
  record UserMessage(String text) implements ConversationEntry {
    public UserMessage {
      Objects.requireNonNull(text, "text");
    }
  }

  /** A complete assistant message. */
  record AssistantMessage(String text) implements ConversationEntry {
    public AssistantMessage {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * The agent called a tool; {@code input} is the arguments as recorded (an object, or the raw text when the
   * agent's arguments were not JSON).
   */
  record ToolCall(String callId, String tool, JsonNode input) implements ConversationEntry {
    public ToolCall {
      Objects.requireNonNull(callId, "callId");
      Objects.requireNonNull(tool, "tool");
      Objects.requireNonNull(input, "input");
    }
  }

  /** A tool call's result, paired with its call by {@code callId}. */
  record ToolResult(String callId, String output, boolean isError) implements ConversationEntry {
    public ToolResult {
      Objects.requireNonNull(callId, "callId");
      output = output == null ? "" : output;
    }
  }
}
