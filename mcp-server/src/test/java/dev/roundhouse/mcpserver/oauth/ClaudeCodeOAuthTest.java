package dev.roundhouse.mcpserver.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.NodeProject;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.mcpserver.McpServers;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Claude Code CLI ({@code drivers/src/test/agents}, pinned there) signs in to a real hub with
 * {@code claude mcp add --transport http} and no header: {@code claude mcp login} under a terminal ({@code script})
 * registers itself, opens the "browser" (a {@code BROWSER} script that hands the URL to the test), and the test
 * plays the browser and the user: it opens the sign-in page, answers the {@code mcp_consent} decision through the
 * hub's HTTP operation, and follows the redirect to Claude Code's loopback callback. Claude Code then reports the
 * server Connected and the hub lists its grant. With the hub's clock past the access token's hour, Claude Code
 * refreshes by itself and stays Connected; once the client is revoked it needs authentication again. Nothing leaves 127.0.0.1: Claude Code runs with a throwaway HOME,
 * non-essential traffic off, and its model URL on a loopback port nobody listens on (no model is asked here).
 */
class ClaudeCodeOAuthTest {
  private static final Duration STEP = Duration.ofSeconds(60);

  @TempDir Path scratch;
  private final ManualClock clock = new ManualClock(Instant.now());

  @Test
  void claudeCodeWithNoHeaderIsConnectedOnceConsentIsGivenRefreshesAndIsCutOffByRevocation() throws Exception {
    Path claude = requireClaude();
    NodeProject.require("script", "the test gives `claude mcp login` a terminal with util-linux script");
    McpAuthorization authorization = new McpAuthorization(AuthorizationSettings.DEFAULTS);
    try (TestHub hub = TestHub.withExtensionsAndMounts(this::withClock, List.of(), List.of(authorization),
        h -> McpServers.withAuthorization(h, authorization))) {
      String base = hub.server().url();
      ClaudeCode code = new ClaudeCode(claude, scratch);

      assertThat(code.run("mcp", "add", "--transport", "http", "roundhouse", base + "/mcp"))
          .contains("Added HTTP MCP server roundhouse");
      assertThat(code.run("mcp", "get", "roundhouse")).contains("Needs authentication");

      Process login = code.start("mcp login roundhouse");
      StringBuffer printed = new StringBuffer();
      Thread reader = Thread.ofVirtual().start(() -> {
        byte[] chunk = new byte[8192];
        try (var output = login.getInputStream()) {
          // As it comes, so that a failure message shows what Claude Code had printed by then.
          for (int read; (read = output.read(chunk)) >= 0; ) {
            printed.append(new String(chunk, 0, read, StandardCharsets.UTF_8));
          }
        } catch (IOException e) {
          // the process ended
        }
      });
      Map<String, String> request;
      try {
        String authorizationUrl = code.openedUrl(STEP)
            .orElseThrow(() -> new AssertionError("Claude Code opened no browser; it printed:\n" + printed));
        assertThat(authorizationUrl).startsWith(base + "/oauth/authorize?");
        request = OAuthClient.query(authorizationUrl);
        assertThat(request).containsEntry("code_challenge_method", "S256").containsEntry("resource", base + "/mcp");

        // The browser: the sign-in page names Claude Code and the decision it waits for; the user allows it.
        OAuthClient browser = new OAuthClient(base);
        OAuthClient.Page page = browser.open(authorizationUrl);
        assertThat(page.reply().body()).contains("Allow Claude Code (roundhouse) to use Roundhouse as you?");
        JsonNode answered = hub.http().op("decision_answer", Map.of("decision", page.decision(), "answer", "allow"));
        assertThat(answered.path("kind").asText()).isEqualTo(McpAuthorization.CONSENT);
        assertThat(answered.path("title").asText()).startsWith("Allow Claude Code (roundhouse) from localhost:");
        String location = browser.await(page).json().path("location").asText();
        assertThat(location).startsWith(request.get("redirect_uri") + "?code=");
        assertThat(OAuthClient.query(location)).containsEntry("state", request.get("state"));

        // Claude Code's callback listens on 127.0.0.1 although its redirect URI says localhost.
        URI callback = URI.create(location);
        OAuthClient.Reply landed = browser.get(new URI("http", null, "127.0.0.1", callback.getPort(), callback.getPath(),
            null, null) + "?" + callback.getRawQuery());
        assertThat(landed.status()).isEqualTo(200);
        assertThat(landed.body()).contains("Authentication successful");

        assertThat(login.waitFor(STEP.toSeconds(), TimeUnit.SECONDS)).as("claude mcp login still running:\n" + printed).isTrue();
        reader.join(Duration.ofSeconds(10));
        assertThat(login.exitValue()).as(printed.toString()).isZero();
        assertThat(printed.toString()).contains("Authenticated with \"roundhouse\"");
      } finally {
        login.descendants().forEach(ProcessHandle::destroyForcibly);
        login.destroyForcibly();
      }

      assertThat(code.run("mcp", "list")).contains("roundhouse: " + base + "/mcp (HTTP) - ✔ Connected");
      assertThat(code.run("mcp", "get", "roundhouse")).contains("Status: ✔ Connected");

      JsonNode clients = hub.http().op("mcp_client_list", Map.of()).path("clients");
      assertThat(clients).hasSize(1);
      assertThat(clients.get(0).path("client_name").asText()).isEqualTo("Claude Code (roundhouse)");
      assertThat(clients.get(0).path("authorized").asBoolean()).isTrue();
      assertThat(clients.get(0).path("client_id").asText()).isEqualTo(request.get("client_id"));
      String firstExpiry = clients.get(0).path("access_token_expires_at").asText();

      // An hour on, the hub refuses the access token (invalid_token); Claude Code refreshes it and stays connected.
      clock.advance(Duration.ofMinutes(61));
      assertThat(code.run("mcp", "get", "roundhouse")).contains("Status: ✔ Connected");
      JsonNode refreshed = hub.http().op("mcp_client_list", Map.of()).path("clients").get(0);
      assertThat(refreshed.path("client_id").asText()).isEqualTo(request.get("client_id"));
      assertThat(Instant.parse(refreshed.path("access_token_expires_at").asText())).isAfter(Instant.parse(firstExpiry));

      JsonNode revoked = hub.http().op("mcp_client_revoke", Map.of("client_id", request.get("client_id")));
      assertThat(revoked.path("had_tokens").asBoolean()).isTrue();
      assertThat(code.run("mcp", "get", "roundhouse")).contains("Needs authentication");
    }
  }

  private HubConfig withClock(HubConfig c) {
    return c.withClock(clock);
  }

  /** The pinned CLI; absent, the test is skipped on a developer's machine and fails under CI (env {@code CI}). */
  private static Path requireClaude() {
    Path claude = Path.of("..", "drivers", "src", "test", "agents", "node_modules", ".bin", "claude").toAbsolutePath().normalize();
    if (!Files.isExecutable(claude)) {
      String message = "claude is not installed at " + claude + ": run ./run-tests (npm ci in drivers/src/test/agents)";
      if (System.getenv("CI") != null) {
        throw new IllegalStateException(message);
      }
      assumeTrue(false, message);
    }
    return claude;
  }

  /** One Claude Code installation: its throwaway HOME, project folder and BROWSER script under {@code root}. Not thread-safe. */
  private static final class ClaudeCode {
    private final Path claude;
    private final Path home;
    private final Path project;
    private final Path opened;
    private final Map<String, String> environment = new HashMap<>();

    ClaudeCode(Path claude, Path root) throws IOException {
      this.claude = claude;
      this.home = Files.createDirectories(root.resolve("home"));
      this.project = Files.createDirectories(root.resolve("project"));
      Path browsers = Files.createDirectories(root.resolve("browser"));
      this.opened = browsers.resolve("opened-url");
      Path browser = root.resolve("browser.sh");
      // Written aside and moved, so the file appears whole.
      Files.writeString(browser, "#!/bin/sh\nprintf '%s\\n' \"$1\" > '" + browsers.resolve("url.tmp") + "' && mv '"
          + browsers.resolve("url.tmp") + "' '" + opened + "'\n");
      Files.setPosixFilePermissions(browser, PosixFilePermissions.fromString("rwx------"));
      Files.createDirectories(home.resolve("tmp"));
      environment.put("HOME", home.toString());
      environment.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
      environment.put("TMPDIR", home.resolve("tmp").toString());
      environment.put("BROWSER", browser.toString());
      environment.put("SHELL", "/bin/sh");
      environment.put("NO_COLOR", "1");
      environment.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
      environment.put("DISABLE_TELEMETRY", "1");
      environment.put("DISABLE_AUTOUPDATER", "1");
      environment.put("DISABLE_ERROR_REPORTING", "1");
      environment.put("ANTHROPIC_API_KEY", "sk-test");
      environment.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:9");
    }

    /** Runs {@code claude args...} in the project folder and returns what it printed, asserting exit 0. */
    String run(String... args) {
      List<String> command = new ArrayList<>(List.of(claude.toString()));
      command.addAll(List.of(args));
      NodeProject.Result result = NodeProject.at(project).run(command, environment, STEP);
      assertThat(result.exit()).as(String.join(" ", command) + ":\n" + result.output()).isZero();
      return result.output();
    }

    /** Starts {@code claude <arguments>} under a pseudo-terminal ({@code script}); stdin stays open and unused. */
    Process start(String arguments) throws IOException {
      ProcessBuilder builder = new ProcessBuilder("script", "-qfec", "'" + claude + "' " + arguments, "/dev/null")
          .directory(project.toFile()).redirectErrorStream(true);
      builder.environment().keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
      builder.environment().putAll(environment);
      return builder.start();
    }

    /** The URL Claude Code handed to the browser, once it has (waiting on the file's creation), or empty at the deadline. */
    Optional<String> openedUrl(Duration within) throws IOException, InterruptedException {
      Instant deadline = Instant.now().plus(within);
      try (WatchService watcher = FileSystems.getDefault().newWatchService()) {
        opened.getParent().register(watcher, StandardWatchEventKinds.ENTRY_CREATE);
        while (!Files.exists(opened)) {
          Duration left = Duration.between(Instant.now(), deadline);
          if (left.isNegative()) {
            return Optional.empty();
          }
          WatchKey key = watcher.poll(left.toMillis(), TimeUnit.MILLISECONDS);
          if (key != null) {
            key.pollEvents();
            key.reset();
          }
        }
      }
      return Optional.of(Files.readString(opened).strip());
    }
  }
}
