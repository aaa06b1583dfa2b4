package dev.roundhouse.app;

import dev.roundhouse.drivers.openai.OpenAiDriver;
import dev.roundhouse.drivers.script.ScriptDriver;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.turns.AgentDriver;
import java.util.List;

/**
 * The agent drivers a hub started by this command runs turns with. One place, so {@code serve}, {@code
 * demo} and the benchmarks agree. Stateless.
 */
final class Drivers {
  private Drivers() {}

  static List<AgentDriver> all(Context context, HubConfig config) {
    return List.of(new OpenAiDriver(context.env(), config.home()), new ScriptDriver());
  }
}
