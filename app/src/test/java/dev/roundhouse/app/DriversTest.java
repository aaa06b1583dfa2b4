package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.turns.AgentDriver;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriversTest {
  @TempDir Path home;

  @Test
  void aHubStartedByTheCommandOffersTheOpenAiAndScriptDrivers() {
    assertThat(Drivers.all(context(home, home), HubConfig.forHome(home)))
        .extracting(AgentDriver::id)
        .containsExactly("openai", "script");
  }
}
