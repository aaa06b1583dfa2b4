package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.acp.AcpAgentConfig;
import dev.roundhouse.drivers.process.AgentCommand;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code $ROUNDHOUSE_HOME/agents.json}: how to start each agent CLI. Optional; without it, Claude Code and
 * Codex are looked up on {@code PATH} and Gemini CLI runs as the ACP preset.
 *
 * <pre>{@code
 * {
 *   "claude": {"command": "/opt/bin/claude", "args": [], "env": {"ANTHROPIC_BASE_URL": "…"}},
 *   "codex": false,
 *   "acp": [{"preset": "gemini", "args": ["--acp", "-m", "gemini-2.5-pro"]},
 *           {"id": "my-agent", "name": "My agent", "command": "my-agent", "args": ["--acp"]}]
 * }
 * }</pre>
 *
 * {@code false} leaves a driver out; {@code "acp": []} runs no ACP agent. Immutable; thread-safe.
 */
final class AgentsFile {
  static final String FILE_NAME = "agents.json";
  private static final Set<String> TOP_LEVEL = Set.of("claude", "codex", "acp");
  private static final Set<String> COMMAND_FIELDS = Set.of("command", "args", "env");
  private static final long MAX_BYTES = 1 << 20;

  private final JsonNode root;
  private final Path file;

  private AgentsFile(JsonNode root, Path file) {
    this.root = root;
    this.file = file;
  }

  /** Reads the file in {@code home}; an absent file is an empty configuration. A bad one is refused naming what is wrong. */
  static AgentsFile load(Path home) {
    Path file = home.resolve(FILE_NAME);
    if (!Files.exists(file)) {
      return new AgentsFile(Json.mapper().createObjectNode(), file);
    }
    JsonNode root;
    try {
      if (Files.size(file) > MAX_BYTES) {
        throw invalid(file, "is larger than 1 MB");
      }
      root = Json.mapper().readTree(Files.readString(file));
    } catch (IOException e) {
      throw invalid(file, "is not valid JSON: " + e.getMessage().lines().findFirst().orElse(""));
    }
    if (root == null || !root.isObject()) {
      throw invalid(file, "must hold a JSON object");
    }
    for (String field : names(root)) {
      if (!TOP_LEVEL.contains(field)) {
        throw invalid(file, "has an unknown field '" + field + "' (expected claude, codex, acp)");
      }
    }
    AgentsFile agents = new AgentsFile(root, file);
    agents.command("claude"); // validate now: a typo stops the hub at start, not at the first turn
    agents.command("codex");
    agents.acpAgents();
    return agents;
  }

  /**
   * The command for {@code agent} ({@code claude} or {@code codex}): the configured one, the program named
   * {@code agent} on PATH when absent, or empty when the file says {@code false}.
   */
  Optional<AgentCommand> command(String agent) {
    JsonNode node = root.get(agent);
    if (node == null || node.isNull()) {
      return Optional.of(AgentCommand.of(agent));
    }
    if (node.isBoolean()) {
      return node.booleanValue() ? Optional.of(AgentCommand.of(agent)) : Optional.empty();
    }
    return Optional.of(parseCommand(node, agent, agent));
  }

  /**
   * The ACP agents: the {@code acp} array (each entry as {@code docs/drivers/acp.md} describes, a preset
   * such as {@code {"preset": "gemini"}} included), or the Gemini CLI preset when the file says nothing.
   */
  List<AcpAgentConfig> acpAgents() {
    JsonNode acp = root.get("acp");
    if (acp == null || acp.isNull()) {
      return List.of(AcpAgentConfig.geminiPreset());
    }
    if (!acp.isArray()) {
      throw invalid(file, "field 'acp' must be an array of ACP agents, such as [{\"preset\": \"gemini\"}]");
    }
    ObjectNode wrapped = Json.mapper().createObjectNode();
    wrapped.set("agents", acp);
    return AcpAgentConfig.listFromJson(Json.write(wrapped), file.toString());
  }

  /** Where the file is (whether or not it exists). */
  Path file() {
    return file;
  }

  private AgentCommand parseCommand(JsonNode node, String where, String defaultProgram) {
    if (!node.isObject()) {
      throw invalid(file, "field '" + where + "' must be an object {command, args, env} or false");
    }
    for (String field : names(node)) {
      if (!COMMAND_FIELDS.contains(field)) {
        throw invalid(file, "field '" + where + "' has an unknown field '" + field + "' (expected command, args, env)");
      }
    }
    String program = node.path("command").asText(defaultProgram);
    if (node.has("command") && (!node.get("command").isTextual() || program.isBlank())) {
      throw invalid(file, "'" + where + ".command' must be a program name or path");
    }
    List<String> args = new ArrayList<>();
    JsonNode argsNode = node.path("args");
    if (!argsNode.isMissingNode() && !argsNode.isArray()) {
      throw invalid(file, "'" + where + ".args' must be an array of strings");
    }
    for (JsonNode arg : argsNode) {
      if (!arg.isTextual()) {
        throw invalid(file, "'" + where + ".args' must be an array of strings, not " + arg);
      }
      args.add(arg.asText());
    }
    Map<String, String> env = new LinkedHashMap<>();
    JsonNode envNode = node.path("env");
    if (!envNode.isMissingNode() && !envNode.isObject()) {
      throw invalid(file, "'" + where + ".env' must be an object of variable name to value");
    }
    for (String name : names(envNode)) {
      if (!envNode.get(name).isTextual()) {
        throw invalid(file, "'" + where + ".env." + name + "' must be a string");
      }
      env.put(name, envNode.get(name).asText());
    }
    return new AgentCommand(program, args, env);
  }

  private static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static RoundhouseException invalid(Path file, String what) {
    return new RoundhouseException.InvalidInput(file + " " + what);
  }
}
