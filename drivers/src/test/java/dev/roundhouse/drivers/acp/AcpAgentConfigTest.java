package dev.roundhouse.drivers.acp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AcpAgentConfigTest {

  @Test
  void theGeminiPresetRunsGeminiInAcpMode() {
    AcpAgentConfig gemini = AcpAgentConfig.geminiPreset();

    assertThat(gemini.id()).isEqualTo("gemini");
    assertThat(gemini.displayName()).isEqualTo("Gemini CLI");
    assertThat(gemini.command().commandLine(List.of())).containsExactly("gemini", "--acp");
    assertThat(gemini.passEnv()).containsExactly("GEMINI_", "GOOGLE_");
    assertThat(new AcpDriver(gemini).id()).isEqualTo("gemini");
    assertThat(new AcpDriver(gemini).capabilities().supportsLinger()).isTrue();
  }

  @Test
  void aFileAddsAgentsAndMayStartFromAPreset() {
    List<AcpAgentConfig> agents = AcpAgentConfig.listFromJson("""
        {"agents": [
          {"preset": "gemini", "command": "/opt/gemini/bin/gemini", "args": ["--acp", "-m", "gemini-2.5-pro"]},
          {"id": "claude-acp", "name": "Claude Code (ACP)", "command": "claude-code-acp", "env": {"ANTHROPIC_LOG": "error"},
           "pass_env": ["ANTHROPIC_"], "key_env": ["ANTHROPIC_API_KEY"], "settings_files": ["~/.claude/settings.json", ".claude/settings.json"],
           "startup_timeout_seconds": 30, "cancel_grace_seconds": 2.5}
        ]}
        """, "acp-agents.json");

    assertThat(agents).extracting(AcpAgentConfig::id).containsExactly("gemini", "claude-acp");
    AcpAgentConfig gemini = agents.get(0);
    assertThat(gemini.displayName()).isEqualTo("Gemini CLI");
    assertThat(gemini.command().commandLine(List.of())).containsExactly("/opt/gemini/bin/gemini", "--acp", "-m", "gemini-2.5-pro");
    assertThat(gemini.keyEnv()).containsExactly("GEMINI_API_KEY", "GOOGLE_API_KEY");
    AcpAgentConfig claude = agents.get(1);
    assertThat(claude.displayName()).isEqualTo("Claude Code (ACP)");
    assertThat(claude.command().env()).isEqualTo(Map.of("ANTHROPIC_LOG", "error"));
    assertThat(claude.startupTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(claude.cancelGrace()).isEqualTo(Duration.ofMillis(2500));
    assertThat(claude.versionArgs()).isEmpty();
  }

  @Test
  void mistakesNameTheFileTheAgentAndTheSetting() {
    assertThatThrownBy(() -> AcpAgentConfig.listFromJson("{\"agents\": [{\"id\": \"x\", \"command\": \"x\", \"comand\": 1}]}", "acp-agents.json"))
        .isInstanceOf(RoundhouseException.InvalidInput.class)
        .hasMessageStartingWith("acp-agents.json, agents[0]: unknown setting 'comand'");
    assertThatThrownBy(() -> AcpAgentConfig.listFromJson("{\"agents\": [{\"id\": \"x\"}]}", "acp-agents.json"))
        .hasMessageStartingWith("acp-agents.json, agents[0] ('x'): an agent needs a \"command\"");
    assertThatThrownBy(() -> AcpAgentConfig.listFromJson("{\"agents\": [{\"id\": \"Bad Id\", \"command\": \"x\"}]}", "acp-agents.json"))
        .hasMessageContaining("an ACP agent's id must be lower-case letters");
    assertThatThrownBy(() -> AcpAgentConfig.listFromJson("{\"agents\": [{\"id\": \"x\", \"command\": \"x\"}, {\"id\": \"x\", \"command\": \"y\"}]}", "a.json"))
        .hasMessage("a.json: two agents have the id 'x'");
    assertThatThrownBy(() -> AcpAgentConfig.listFromJson("{\"agents\": [{\"preset\": \"cursor\"}]}", "a.json"))
        .hasMessage("a.json, agents[0]: no preset 'cursor' (presets: gemini)");
    assertThatThrownBy(() -> AcpAgentConfig.listFromJson("{\"agents\": [\n{\"id\": \"x\",}]}", "a.json"))
        .hasMessageStartingWith("a.json is not valid JSON (line 2");
  }

  @Test
  void theHubsOwnVariablesNeverReachAnAgent() {
    assertThatThrownBy(() -> AcpAgentConfig.listFromJson("{\"agents\": [{\"id\": \"x\", \"command\": \"x\", \"pass_env\": [\"ROUNDHOUSE_\"]}]}", "a.json"))
        .hasMessageContaining("pass_env cannot pass the hub's own ROUNDHOUSE_* variables");
    assertThatThrownBy(() -> AcpAgentConfig.listFromJson("{\"agents\": [{\"id\": \"x\", \"command\": \"x\", \"pass_env\": [\"ROUND\"]}]}", "a.json"))
        .hasMessageContaining("pass_env cannot pass the hub's own ROUNDHOUSE_* variables");
    assertThatThrownBy(() -> AcpAgentConfig.listFromJson("{\"agents\": [{\"id\": \"x\", \"command\": \"x\", \"env\": {\"ROUNDHOUSE_TOKEN\": \"t\"}}]}", "a.json"))
        .hasMessageContaining("env.ROUNDHOUSE_TOKEN: the hub's own ROUNDHOUSE_* variables are never given to an agent")
        .hasMessageNotContaining("\"t\"");
  }
}
