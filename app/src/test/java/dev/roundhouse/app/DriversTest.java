package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.spi.AgentDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriversTest {
  @TempDir Path home;

  @Test
  void withoutAnAgentsFileTheHubOffersTheCliAgentsTheOpenAiEndpointAndTheScriptDriver() {
    assertThat(Drivers.all(context(home, home), HubConfig.forHome(home)))
        .extracting(AgentDriver::id)
        .containsExactly("claude", "codex", "gemini", "openai", "script");
  }

  @Test
  void acpAgentsComeFromTheAcpArrayPresetsIncluded() throws Exception {
    Files.writeString(home.resolve("agents.json"), """
        {"claude": false, "codex": false,
         "acp": [{"preset": "gemini", "args": ["--acp", "-m", "gemini-2.5-pro"]},
                 {"id": "my-agent", "name": "My agent", "command": "/nowhere/my-agent", "args": ["--acp"]}]}
        """);
    var drivers = Drivers.all(context(home, home), HubConfig.forHome(home));
    assertThat(drivers).extracting(AgentDriver::id).containsExactly("gemini", "my-agent", "openai", "script");
    assertThat(drivers.get(1).capabilities().displayName()).isEqualTo("My agent");
    Files.writeString(home.resolve("agents.json"), "{\"acp\": []}");
    assertThat(Drivers.all(context(home, home), HubConfig.forHome(home))).extracting(AgentDriver::id)
        .containsExactly("claude", "codex", "openai", "script");
  }

  @Test
  void anAgentsFileConfiguresTheCommandAndFalseLeavesADriverOut() throws Exception {
    Files.writeString(home.resolve("agents.json"), """
        {"claude": {"command": "/nowhere/claude", "env": {"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}}, "codex": false}
        """);
    var drivers = Drivers.all(context(home, home), HubConfig.forHome(home));
    assertThat(drivers).extracting(AgentDriver::id).containsExactly("claude", "gemini", "openai", "script");
    assertThat(drivers.getFirst().authStatus().detail()).contains("/nowhere/claude is not an executable file");
  }

  @Test
  void aBadAgentsFileIsRefusedNamingTheField() throws Exception {
    Files.writeString(home.resolve("agents.json"), "{\"claude\": {\"comand\": \"claude\"}}");
    assertThatThrownBy(() -> Drivers.all(context(home, home), HubConfig.forHome(home)))
        .hasMessageContaining("agents.json")
        .hasMessageContaining("unknown field 'comand' (expected command, args, env)");
    Files.writeString(home.resolve("agents.json"), "{\"gemini\": {}}");
    assertThatThrownBy(() -> Drivers.all(context(home, home), HubConfig.forHome(home)))
        .hasMessageContaining("unknown field 'gemini' (expected claude, codex, acp)");
    Files.writeString(home.resolve("agents.json"), "{\"acp\": [{\"preset\": \"gemni\"}]}");
    assertThatThrownBy(() -> Drivers.all(context(home, home), HubConfig.forHome(home)))
        .hasMessageContaining("gemni");
    Files.writeString(home.resolve("agents.json"), "{not json");
    assertThatThrownBy(() -> Drivers.all(context(home, home), HubConfig.forHome(home)))
        .hasMessageContaining("is not valid JSON");
  }
}
