package dev.roundhouse.drivers.codex;

import dev.roundhouse.drivers.process.AgentClis;
import dev.roundhouse.drivers.process.AgentCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A throwaway world for the real Codex CLI: a CODEX_HOME whose {@code config.toml} points at a fake
 * Responses server on 127.0.0.1 (provider {@code fake}, analytics and plugins off, no update check), a HOME
 * and TMPDIR of its own, and a project folder that is a git repository. Nothing reaches the internet and
 * nothing touches the real {@code ~/.codex}. Not thread-safe; one per test.
 */
final class CodexHome {
  static final String MODEL = "gpt-5.5";
  static final String KEY_VARIABLE = "FAKE_API_KEY";

  private final Path root;
  private final Path codexHome;
  private final Path project;
  private final FakeResponsesServer server;

  CodexHome(Path root, FakeResponsesServer server) {
    this.root = root;
    this.server = server;
    this.codexHome = root.resolve("codex-home");
    this.project = root.resolve("project");
    try {
      Files.createDirectories(codexHome);
      Files.createDirectories(root.resolve("home"));
      Files.createDirectories(root.resolve("tmp"));
      Files.createDirectories(project);
      Files.writeString(codexHome.resolve("config.toml"), """
          model = "%s"
          model_provider = "fake"
          check_for_update_on_startup = false

          [model_providers.fake]
          name = "fake"
          base_url = "%s"
          env_key = "%s"
          wire_api = "responses"

          [analytics]
          enabled = false

          [features]
          plugins = false
          """.formatted(MODEL, server.baseUrl(), KEY_VARIABLE));
      Files.writeString(project.resolve("README.md"), "a test project\n");
      Process git = new ProcessBuilder("git", "init", "-q").directory(project.toFile()).inheritIO().start();
      if (git.waitFor() != 0) {
        throw new IllegalStateException("git init failed in " + project);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  Path project() {
    return project;
  }

  Path codexHome() {
    return codexHome;
  }

  /** The real codex (pinned, from drivers/src/test/agents) with this world's variables. */
  AgentCommand command() {
    return new AgentCommand(AgentClis.codex().toString(), java.util.List.of(), Map.of(
        "CODEX_HOME", codexHome.toString(),
        "HOME", root.resolve("home").toString(),
        "TMPDIR", root.resolve("tmp").toString(),
        KEY_VARIABLE, "sk-fake-test-key"));
  }

  /** Settings for tests: this world's codex, a short stop grace, and a short endpoint deadline. */
  CodexSettings settings() {
    return CodexSettings.defaults().withCommand(command()).withStopGrace(Duration.ofSeconds(3)).withEndpointDeadline(Duration.ofSeconds(4));
  }

  FakeResponsesServer server() {
    return server;
  }
}
