package dev.roundhouse.drivers.claude;

import dev.roundhouse.drivers.process.AgentClis;
import dev.roundhouse.drivers.process.AgentCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real, pinned {@code claude} pointed at a {@link FakeAnthropicServer}, with the offline environment of
 * {@code shared/notes/agent-clis.md} and a throwaway HOME and TMPDIR, so nothing leaves loopback and the
 * real {@code ~/.claude} is never touched. Stateless.
 */
final class OfflineClaude {
  private OfflineClaude() {}

  static AgentCommand command(FakeAnthropicServer server, Path home) {
    return command(AgentClis.claude().toString(), server, home);
  }

  static AgentCommand command(String program, FakeAnthropicServer server, Path home) {
    Path tmp = home.resolve("tmp");
    try {
      Files.createDirectories(tmp);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> env = new HashMap<>();
    env.put("ANTHROPIC_BASE_URL", server.baseUrl());
    env.put("ANTHROPIC_API_KEY", "sk-test");
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    env.put("DISABLE_TELEMETRY", "1");
    env.put("DISABLE_AUTOUPDATER", "1");
    env.put("DISABLE_ERROR_REPORTING", "1");
    env.put("CLAUDE_CODE_MAX_RETRIES", "1");
    env.put("HOME", home.toString());
    env.put("TMPDIR", tmp.toString());
    return new AgentCommand(program, List.of(), env);
  }

  static ClaudeSettings settings(FakeAnthropicServer server, Path home, Duration stopGrace) {
    return new ClaudeSettings(command(server, home), stopGrace, Duration.ofSeconds(20));
  }

  /** The hub's environment the driver filters: only PATH (so the test machine's own variables never matter). */
  static Map<String, String> hubEnvironment() {
    return Map.of("PATH", System.getenv("PATH"));
  }
}
