package dev.roundhouse.drivers.acp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What an agent said about itself: its version (from {@code initialize}'s {@code agentInfo}) and the models
 * and modes its last session offered (from {@code session/new}). Immutable; the driver keeps the latest.
 *
 * @param version the agent's version, or null before it first answered
 * @param models model ids, or empty when unknown or not offered
 * @param modes mode ids (the agent's permission modes), or empty
 */
record AgentFacts(String version, List<String> models, List<String> modes) {
  static final AgentFacts UNKNOWN = new AgentFacts(null, List.of(), List.of());

  AgentFacts {
    models = List.copyOf(models);
    modes = List.copyOf(modes);
  }

  /** These facts with the version of an {@code initialize} answer. */
  AgentFacts withVersion(JsonNode initializeAnswer) {
    String found = initializeAnswer.path("agentInfo").path("version").asText(null);
    return new AgentFacts(found != null ? found : version, models, modes);
  }

  /** These facts with the models and modes of a {@code session/new} or {@code session/load} answer. */
  AgentFacts withSession(JsonNode sessionAnswer) {
    List<String> foundModels = ids(sessionAnswer.path("models").path("availableModels"), "modelId");
    List<String> foundModes = ids(sessionAnswer.path("modes").path("availableModes"), "id");
    return new AgentFacts(version, foundModels.isEmpty() ? models : foundModels, foundModes.isEmpty() ? modes : foundModes);
  }

  private static List<String> ids(JsonNode list, String field) {
    List<String> ids = new ArrayList<>();
    list.forEach(item -> {
      if (item.path(field).isTextual()) {
        ids.add(item.get(field).asText());
      }
    });
    return ids;
  }
}
