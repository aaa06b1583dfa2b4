package dev.roundhouse.drivers.acp;

import dev.roundhouse.drivers.process.AgentClis;
import dev.roundhouse.drivers.process.AgentCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real Gemini CLI, offline: a throwaway HOME with the settings from the notes (no updates, no
 * telemetry, no folder trust, API-key auth), its own TMPDIR, {@code GEMINI_API_KEY=test}, the fake server as
 * {@code GOOGLE_GEMINI_BASE_URL}, and {@code -m fake-gemini} so no routing call is made. Immutable.
 */
record OfflineGemini(Path home, Path tmp, AcpAgentConfig config) {
  static final String SETTINGS = """
      {"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false},
       "privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},
       "security":{"folderTrust":{"enabled":false},"auth":{"selectedType":"gemini-api-key"}}}
      """;

  static OfflineGemini in(Path folder, FakeGeminiServer server) {
    try {
      Path home = Files.createDirectories(folder.resolve("home"));
      Path tmp = Files.createDirectories(folder.resolve("tmp"));
      Files.createDirectories(home.resolve(".gemini"));
      Files.writeString(home.resolve(".gemini/settings.json"), SETTINGS);
      AgentCommand command = new AgentCommand(
          AgentClis.gemini().toString(),
          List.of("--acp", "-m", "fake-gemini"),
          Map.of("HOME", home.toString(), "TMPDIR", tmp.toString(), "GEMINI_API_KEY", "test", "GOOGLE_GEMINI_BASE_URL", server.baseUrl()));
      return new OfflineGemini(home, tmp, AcpAgentConfig.geminiPreset().withCommand(command));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The hub's environment as the driver sees it in tests: just a PATH (node is found through it). */
  static AcpDriver.Tuning tuning(LineObserver observer) {
    return new AcpDriver.Tuning(() -> Map.of("PATH", System.getenv("PATH")), observer, Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofMinutes(3));
  }

  AcpDriver driver() {
    return new AcpDriver(config, tuning(LineObserver.NONE));
  }
}
