package dev.roundhouse.drivers.acp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.AgentCommand;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One agent that speaks the Agent Client Protocol over stdio, as the user configured it: each becomes a
 * driver of its own ({@link AcpDriver}). Gemini CLI ships as {@link #geminiPreset()}; any other ACP agent is
 * added in configuration alone ({@link #listFromJson}). Immutable.
 *
 * @param id the driver id tasks and projects name, such as {@code gemini} ({@code [a-z0-9][a-z0-9_-]*})
 * @param displayName what pickers show, such as "Gemini CLI"
 * @param command how to start the agent in ACP mode: program, its arguments (such as {@code --acp}) and
 *     variables set for it
 * @param passEnv prefixes of the hub's own variables the agent gets (such as {@code GEMINI_}); never
 *     {@code ROUNDHOUSE_*}
 * @param keyEnv variables of which any one, set, means the agent has a key (for the auth check)
 * @param credentialFiles files of which any one, present, means the agent is logged in ({@code ~/} is the
 *     home folder)
 * @param settingsFiles files that change the agent's permissions outside the hub's gate ({@code ~/} is the
 *     home folder, other paths are relative to the project)
 * @param versionArgs arguments that make the program print its version (empty: no version check)
 * @param startupTimeout how long {@code initialize} plus {@code session/new} may take
 * @param cancelGrace how long a stopped prompt may take to end after {@code session/cancel} before the
 *     agent's process group is killed
 */
public record AcpAgentConfig(
    String id,
    String displayName,
    AgentCommand command,
    List<String> passEnv,
    List<String> keyEnv,
    List<String> credentialFiles,
    List<String> settingsFiles,
    List<String> versionArgs,
    Duration startupTimeout,
    Duration cancelGrace) {

  private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");
  static final Duration DEFAULT_STARTUP = Duration.ofSeconds(60);
  static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);

  public AcpAgentConfig {
    Objects.requireNonNull(id, "id");
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException("an ACP agent's id must be lower-case letters, digits, '-' or '_': '" + id + "'");
    }
    displayName = displayName == null || displayName.isBlank() ? id : displayName;
    Objects.requireNonNull(command, "command");
    passEnv = List.copyOf(passEnv);
    if (passEnv.stream().anyMatch(prefix -> prefix.isEmpty() || prefix.startsWith("ROUNDHOUSE_") || "ROUNDHOUSE_".startsWith(prefix))) {
      throw new IllegalArgumentException("agent '" + id + "': pass_env cannot pass the hub's own ROUNDHOUSE_* variables");
    }
    keyEnv = List.copyOf(keyEnv);
    credentialFiles = List.copyOf(credentialFiles);
    settingsFiles = List.copyOf(settingsFiles);
    versionArgs = List.copyOf(versionArgs);
    startupTimeout = positive(startupTimeout, DEFAULT_STARTUP);
    cancelGrace = positive(cancelGrace, DEFAULT_GRACE);
  }

  /** An agent with just an id, a name and a command; no key check, no settings files, default timeouts. */
  public static AcpAgentConfig of(String id, String displayName, AgentCommand command) {
    return new AcpAgentConfig(id, displayName, command, List.of(), List.of(), List.of(), List.of(), List.of(), null, null);
  }

  /**
   * Gemini CLI ({@code gemini --acp}, measured with 0.61.0): gets the hub's {@code GEMINI_*} and {@code
   * GOOGLE_*} variables, has a key in {@code GEMINI_API_KEY} or {@code GOOGLE_API_KEY} or a Google login in
   * {@code ~/.gemini/oauth_creds.json}, and reads its permissions from {@code ~/.gemini/settings.json} and
   * the project's {@code .gemini/settings.json}.
   */
  public static AcpAgentConfig geminiPreset() {
    return new AcpAgentConfig(
        "gemini",
        "Gemini CLI",
        new AgentCommand("gemini", List.of("--acp"), Map.of()),
        List.of("GEMINI_", "GOOGLE_"),
        List.of("GEMINI_API_KEY", "GOOGLE_API_KEY"),
        List.of("~/.gemini/oauth_creds.json"),
        List.of("~/.gemini/settings.json", ".gemini/settings.json"),
        List.of("--version"),
        DEFAULT_STARTUP,
        DEFAULT_GRACE);
  }

  /** The presets by id (only {@code gemini} today). */
  public static Map<String, AcpAgentConfig> presets() {
    return Map.of("gemini", geminiPreset());
  }

  /**
   * Reads one agent from its JSON object (see {@code docs/drivers/acp.md}): {@code id}, {@code name},
   * {@code preset}, {@code command}, {@code args}, {@code env}, {@code pass_env}, {@code key_env}, {@code
   * credential_files}, {@code settings_files}, {@code version_args}, {@code startup_timeout_seconds},
   * {@code cancel_grace_seconds}.
   *
   * @throws dev.roundhouse.hub.core.RoundhouseException.InvalidInput naming the setting that is wrong
   */
  public static AcpAgentConfig fromJson(JsonNode agent) {
    return AcpAgentConfigParser.agent(agent, "the ACP agent settings");
  }

  /**
   * Reads a file of agents, {@code {"agents": [ {...}, ... ]}}, such as {@code $ROUNDHOUSE_HOME/acp-agents.json}.
   *
   * @param source where the text came from, for error messages (a file name)
   * @throws dev.roundhouse.hub.core.RoundhouseException.InvalidInput naming the file, the agent and the setting
   */
  public static List<AcpAgentConfig> listFromJson(String json, String source) {
    return AcpAgentConfigParser.file(json, source);
  }

  /** A copy whose command is {@code command} (a different binary, extra variables for tests). */
  public AcpAgentConfig withCommand(AgentCommand newCommand) {
    return new AcpAgentConfig(id, displayName, newCommand, passEnv, keyEnv, credentialFiles, settingsFiles, versionArgs, startupTimeout, cancelGrace);
  }

  private static Duration positive(Duration value, Duration fallback) {
    return value == null || value.isZero() || value.isNegative() ? fallback : value;
  }
}
