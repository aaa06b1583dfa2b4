package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.spi.TurnContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Claude Code's {@code AskUserQuestion} tool, answered through the hub's questions: each of its questions
 * becomes {@link TurnContext#ask} with the question's option labels, and the answers go back to the CLI as
 * the tool's {@code updatedInput} ({@code answers}: question text to the chosen label). Stateless;
 * thread-safe.
 */
final class UserQuestions {
  static final String TOOL = "AskUserQuestion";

  private UserQuestions() {}

  /** True when the tool use is a question for the user, not a permission. */
  static boolean isQuestion(String tool, JsonNode input) {
    return TOOL.equals(tool) && input != null && input.path("questions").isArray() && !input.path("questions").isEmpty();
  }

  /**
   * Asks every question in turn; the tool's input with the answers added, or empty as soon as one has no
   * answer (a stop, a timeout, an unattended run).
   */
  static Optional<JsonNode> ask(JsonNode input, TurnContext context) {
    ObjectNode updated = input.deepCopy();
    ObjectNode answers = updated.putObject("answers");
    for (JsonNode question : input.path("questions")) {
      String text = question.path("question").asText("");
      List<String> options = new ArrayList<>();
      question.path("options").forEach(option -> options.add(option.path("label").asText(option.asText())));
      String header = question.path("header").asText("");
      Optional<String> answer = context.ask(header.isBlank() || text.startsWith(header) ? text : header + ": " + text, options);
      if (answer.isEmpty()) {
        return Optional.empty();
      }
      answers.put(text, answer.get());
    }
    return Optional.of(updated);
  }
}
