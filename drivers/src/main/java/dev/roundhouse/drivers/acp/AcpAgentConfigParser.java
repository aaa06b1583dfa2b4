package dev.roundhouse.drivers.acp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.AgentCommand;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@link AcpAgentConfig}s from JSON. An entry may start from a preset ({@code "preset": "gemini"}) and
 * override any of its settings. Every mistake is reported with the source, the agent and the setting; the
 * values of {@code env} are never quoted (they may hold keys). Stateless; thread-safe.
 */
final class AcpAgentConfigParser {
  private static final Set<String> KEYS = Set.of(
      "id", "name", "preset", "command", "args", "env", "pass_env", "key_env", "credential_files", "settings_files",
      "version_args", "startup_timeout_seconds", "cancel_grace_seconds");

  private AcpAgentConfigParser() {}

  static List<AcpAgentConfig> file(String json, String source) {
    JsonNode root;
    try {
      root = Json.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw invalid(source + " is not valid JSON (line " + e.getLocation().getLineNr() + ", column "
          + e.getLocation().getColumnNr() + ")");
    }
    if (root == null || !root.isObject() || !root.path("agents").isArray()) {
      throw invalid(source + " must be an object with an \"agents\" array");
    }
    for (var property : root.properties()) {
      String name = property.getKey();
      if (!name.equals("agents")) {
        throw invalid(source + ": unknown setting '" + name + "' (only \"agents\" is read)");
      }
    }
    List<AcpAgentConfig> agents = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    int index = 0;
    for (JsonNode entry : root.get("agents")) {
      AcpAgentConfig agent = agent(entry, source + ", agents[" + index++ + "]");
      if (!ids.add(agent.id())) {
        throw invalid(source + ": two agents have the id '" + agent.id() + "'");
      }
      agents.add(agent);
    }
    return List.copyOf(agents);
  }

  static AcpAgentConfig agent(JsonNode entry, String where) {
    if (entry == null || !entry.isObject()) {
      throw invalid(where + " must be a JSON object");
    }
    for (var property : entry.properties()) {
      String name = property.getKey();
      if (!KEYS.contains(name)) {
        throw invalid(where + ": unknown setting '" + name + "' (known: " + String.join(", ", KEYS.stream().sorted().toList()) + ")");
      }
    }
    AcpAgentConfig base = null;
    if (entry.has("preset")) {
      String preset = text(entry, "preset", where);
      base = AcpAgentConfig.presets().get(preset);
      if (base == null) {
        throw invalid(where + ": no preset '" + preset + "' (presets: " + String.join(", ", AcpAgentConfig.presets().keySet()) + ")");
      }
    }
    String id = entry.has("id") ? text(entry, "id", where) : base != null ? base.id() : null;
    if (id == null) {
      throw invalid(where + ": an agent needs an \"id\" (such as \"my-agent\")");
    }
    String label = where + " ('" + id + "')";
    String program = entry.has("command") ? text(entry, "command", label) : base != null ? base.command().program() : null;
    if (program == null || program.isBlank()) {
      throw invalid(label + ": an agent needs a \"command\" (the program that speaks ACP on stdio)");
    }
    AgentCommand command = new AgentCommand(
        program,
        entry.has("args") ? strings(entry, "args", label) : base != null ? base.command().args() : List.of(),
        entry.has("env") ? env(entry, label) : base != null ? base.command().env() : Map.of());
    try {
      return new AcpAgentConfig(
          id,
          entry.has("name") ? text(entry, "name", label) : base != null ? base.displayName() : id,
          command,
          list(entry, "pass_env", label, base == null ? List.of() : base.passEnv()),
          list(entry, "key_env", label, base == null ? List.of() : base.keyEnv()),
          list(entry, "credential_files", label, base == null ? List.of() : base.credentialFiles()),
          list(entry, "settings_files", label, base == null ? List.of() : base.settingsFiles()),
          list(entry, "version_args", label, base == null ? List.of() : base.versionArgs()),
          seconds(entry, "startup_timeout_seconds", label, base == null ? null : base.startupTimeout()),
          seconds(entry, "cancel_grace_seconds", label, base == null ? null : base.cancelGrace()));
    } catch (IllegalArgumentException e) {
      throw invalid(label + ": " + e.getMessage());
    }
  }

  private static List<String> list(JsonNode entry, String name, String where, List<String> fallback) {
    return entry.has(name) ? strings(entry, name, where) : fallback;
  }

  private static String text(JsonNode entry, String name, String where) {
    JsonNode value = entry.get(name);
    if (!value.isTextual()) {
      throw invalid(where + ": \"" + name + "\" must be a string");
    }
    return value.asText();
  }

  private static List<String> strings(JsonNode entry, String name, String where) {
    JsonNode value = entry.get(name);
    if (!value.isArray()) {
      throw invalid(where + ": \"" + name + "\" must be an array of strings");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : value) {
      if (!item.isTextual()) {
        throw invalid(where + ": \"" + name + "\" must be an array of strings");
      }
      out.add(item.asText());
    }
    return out;
  }

  private static Map<String, String> env(JsonNode entry, String where) {
    JsonNode value = entry.get("env");
    if (!value.isObject()) {
      throw invalid(where + ": \"env\" must be an object of strings");
    }
    Map<String, String> out = new LinkedHashMap<>();
    value.properties().forEach(field -> {
      if (!field.getValue().isTextual()) {
        throw invalid(where + ": env." + field.getKey() + " must be a string");
      }
      if (field.getKey().startsWith("ROUNDHOUSE_")) {
        throw invalid(where + ": env." + field.getKey() + ": the hub's own ROUNDHOUSE_* variables are never given to an agent");
      }
      out.put(field.getKey(), field.getValue().asText());
    });
    return out;
  }

  private static Duration seconds(JsonNode entry, String name, String where, Duration fallback) {
    if (!entry.has(name)) {
      return fallback;
    }
    JsonNode value = entry.get(name);
    if (!value.isNumber() || value.asDouble() <= 0) {
      throw invalid(where + ": \"" + name + "\" must be a positive number of seconds");
    }
    return Duration.ofMillis(Math.round(value.asDouble() * 1000));
  }

  private static RoundhouseException.InvalidInput invalid(String message) {
    return new RoundhouseException.InvalidInput("acp_agent_config", message);
  }
}
