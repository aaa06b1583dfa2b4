package dev.roundhouse.app;

import java.util.LinkedHashMap;
import java.util.Map;

/** Inputs of the workspace operations, built from name/value pairs with absent (null) values left out. Stateless. */
final class WorkspaceInputs {
  private WorkspaceInputs() {}

  static Map<String, Object> of(Object... namesAndValues) {
    Map<String, Object> input = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      if (namesAndValues[i + 1] != null) {
        input.put((String) namesAndValues[i], namesAndValues[i + 1]);
      }
    }
    return input;
  }

  /** A merge or sync result as one line: the outcome and the engine's sentence, conflicts named. */
  static String mergeLine(com.fasterxml.jackson.databind.JsonNode view) {
    com.fasterxml.jackson.databind.JsonNode result = view.path("result");
    StringBuilder line = new StringBuilder(result.path("outcome").asText().toLowerCase(java.util.Locale.ROOT).replace('_', ' '))
        .append(": ").append(result.path("message").asText());
    if (!result.path("conflicts").isEmpty()) {
      line.append("\nconflicting files: ").append(Texts.join(result.path("conflicts"), ", "));
    }
    if (view.path("asked_agent").asBoolean()) {
      line.append("\nthe task's agent was asked to resolve it (").append(view.path("delivery").asText()).append(")");
    }
    return line.toString();
  }
}
