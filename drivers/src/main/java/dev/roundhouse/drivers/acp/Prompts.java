package dev.roundhouse.drivers.acp;

import dev.roundhouse.hub.spi.TurnRequest;
import java.util.List;

/**
 * The text of a session's first prompt. ACP has no system prompt, so a fresh session's first message
 * carries the turn's own prompt (for a task that is not coding work), the task (the project's context, the task's title and description) and the summaries of the
 * task's earlier generations before the user's message; a loaded session already has them. Stateless.
 */
final class Prompts {
  private Prompts() {}

  static String first(TurnRequest request) {
    StringBuilder text = new StringBuilder();
    if (!request.codingTask()) {
      text.append(request.systemPrompt().strip()).append("\n\n"); // a task that is not coding work: its own prompt first
    }
    if (request.context() != null && !request.context().isBlank()) {
      text.append("You are working on this task (from Roundhouse, the hub that runs this session):\n\n")
          .append(request.context().strip()).append("\n\n");
    }
    List<String> summaries = request.priorSummaries();
    if (!summaries.isEmpty()) {
      text.append("Earlier sessions on this task ended with these summaries, oldest first:\n\n");
      for (int i = 0; i < summaries.size(); i++) {
        text.append(i + 1).append(". ").append(summaries.get(i).strip()).append("\n\n");
      }
    }
    if (text.isEmpty()) {
      return request.message();
    }
    return text.append("The user's message:\n\n").append(request.message()).toString();
  }
}
