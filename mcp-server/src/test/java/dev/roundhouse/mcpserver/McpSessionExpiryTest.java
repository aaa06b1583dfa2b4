package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Json;
import dev.roundhouse.hub.testing.TestHub;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Session expiry over Streamable HTTP on a real hub whose idle time is injected (200 ms; 30 minutes in the
 * product): a session left idle is swept, and a request naming it gets 404 with a JSON-RPC error that names
 * the session as unknown or expired and says to initialize again; a new session works.
 */
class McpSessionExpiryTest {
  private static final Duration IDLE = Duration.ofMillis(200);
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
      + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"expiry\",\"version\":\"1\"}}}";

  private TestHub hub;
  private String token;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withMounts(config -> config, h -> List.of(McpServers.streamableHttp(h, McpOptions.DEFAULTS.withSessionIdle(IDLE))));
    token = Files.readString(McpServers.tokenFile(hub.home())).strip();
  }

  @AfterEach
  void stop() {
    http.close();
    hub.close();
  }

  @Test
  void idleSessionExpiresWith404NamingItAndANewSessionWorks() throws Exception {
    String session = initialize();

    HttpResponse<String> refusal = awaitExpired(session);
    JsonNode error = Json.read(refusal.body(), JsonNode.class);
    assertThat(refusal.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    assertThat(error.path("jsonrpc").asText()).isEqualTo("2.0");
    assertThat(error.path("error").path("code").asInt()).isEqualTo(-32001);
    assertThat(error.path("error").path("message").asText())
        .contains("unknown or expired MCP session '" + session + "'").contains("200 ms").contains("send initialize");
    assertThat(refusal.body()).doesNotContain("\tat ").doesNotContain("Exception");

    String again = initialize();
    assertThat(again).isNotEqualTo(session);
    assertThat(ping(again).statusCode()).isEqualTo(200);
  }

  private String initialize() throws Exception {
    HttpResponse<String> init = http.send(mcp(null).POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
    return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  /**
   * Probes with {@code session} until the hub answers 404, and returns that answer. Each probe counts as
   * activity, keeping the session for one more sweep, so probes are spaced by more than two sweeps (the hub
   * sweeps every {@link #IDLE} and closes what was idle since its previous sweep).
   */
  private HttpResponse<String> awaitExpired(String session) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      LockSupport.parkNanos(IDLE.toNanos() * 3 + IDLE.toNanos() / 2);
      HttpResponse<String> probe = ping(session);
      if (probe.statusCode() == 404) {
        return probe;
      }
      assertThat(probe.statusCode()).as(probe.body()).isEqualTo(200);
    }
    throw new AssertionError("session " + session + " did not expire within " + DEADLINE);
  }

  private HttpResponse<String> ping(String session) throws Exception {
    return http.send(mcp(session).header("MCP-Protocol-Version", "2025-06-18")
        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder mcp(String session) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(hub.server().url() + McpServers.PATH))
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .timeout(DEADLINE);
    return session == null ? builder : builder.header("Mcp-Session-Id", session);
  }
}
