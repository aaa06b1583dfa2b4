package dev.roundhouse.app;

import dev.roundhouse.drivers.acp.AcpDriver;
import dev.roundhouse.drivers.claude.ClaudeDriver;
import dev.roundhouse.drivers.claude.ClaudeSettings;
import dev.roundhouse.drivers.codex.CodexDriver;
import dev.roundhouse.drivers.codex.CodexSettings;
import dev.roundhouse.drivers.openai.OpenAiDriver;
import dev.roundhouse.drivers.script.ScriptDriver;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.spi.AgentDriver;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent drivers a hub started by this command runs turns with. One place, so {@code serve}, {@code
 * demo} and the benchmarks agree. Stateless.
 */
final class Drivers {
  private Drivers() {}

  /**
   * The CLI agents as {@code agents.json} in the home configures them (Claude Code and Codex from PATH and
   * Gemini CLI as an ACP agent when it says nothing), the OpenAI-compatible endpoint, and the script driver.
   */
  static List<AgentDriver> all(Context context, HubConfig config) {
    AgentsFile agents = AgentsFile.load(config.home());
    List<AgentDriver> drivers = new ArrayList<>();
    agents.command("claude").ifPresent(command -> drivers.add(new ClaudeDriver(ClaudeSettings.defaults().withCommand(command))));
    agents.command("codex").ifPresent(command -> drivers.add(new CodexDriver(CodexSettings.defaults().withCommand(command))));
    agents.acpAgents().forEach(acp -> drivers.add(new AcpDriver(acp)));
    drivers.add(new OpenAiDriver(context.env(), config.home()));
    drivers.add(new ScriptDriver());
    return List.copyOf(drivers);
  }
}
