package dev.roundhouse.drivers.openai;

import java.util.List;

/**
 * One assistant message as the endpoint produced it: its text, the tools it calls, why it stopped and the
 * tokens it used. Immutable.
 *
 * @param content the assistant's text; empty when it only called tools
 * @param toolCalls the tool calls, in the model's order
 * @param finishReason the endpoint's {@code finish_reason} ("stop", "tool_calls", "length"), or null
 * @param usage tokens used, or null when the endpoint did not say
 */
record ChatReply(String content, List<ToolCallRequest> toolCalls, String finishReason, TokenUsage usage) {
  ChatReply {
    toolCalls = List.copyOf(toolCalls);
  }

  /**
   * A tool call as the model wrote it.
   *
   * @param id the call's id (generated when the endpoint gave none)
   * @param name the tool's name
   * @param arguments the arguments as the model wrote them: JSON, or something near it
   */
  record ToolCallRequest(String id, String name, String arguments) {}

  /**
   * @param costUsd what the endpoint says the call cost (OpenRouter can report it), or null
   */
  record TokenUsage(long inputTokens, long outputTokens, Double costUsd) {}
}
