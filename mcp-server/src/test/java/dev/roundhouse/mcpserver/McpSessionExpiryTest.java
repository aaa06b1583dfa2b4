package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
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
  private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";

  private TestHub hub;
  private RawSessions sessions;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withMounts(config -> config, h -> List.of(McpServers.streamableHttp(h, McpOptions.DEFAULTS.withSessionIdle(IDLE))));
    sessions = new RawSessions(hub.server().url(), Files.readString(McpServers.tokenFile(hub.home())).strip());
  }

  @AfterEach
  void stop() {
    sessions.close();
    hub.close();
  }

  @Test
  void idleSessionExpiresWith404NamingItAndANewSessionWorks() throws Exception {
    String session = sessions.initialize("expiry");

    HttpResponse<String> refusal = sessions.awaitExpired(session, PING, IDLE);
    JsonNode error = Json.read(refusal.body(), JsonNode.class);
    assertThat(refusal.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    assertThat(error.path("jsonrpc").asText()).isEqualTo("2.0");
    assertThat(error.path("error").path("code").asInt()).isEqualTo(-32001);
    assertThat(error.path("error").path("message").asText())
        .contains("unknown or expired MCP session '" + session + "'").contains("200 ms").contains("send initialize");
    assertThat(refusal.body()).doesNotContain("\tat ").doesNotContain("Exception");

    assertThat(aNewSessionAnswersAPing()).isNotEqualTo(session);
  }

  /**
   * Starts a session and pings it, and returns its id once a ping is answered with 200. Up to three tries: the
   * SDK's sweep runs at a fixed rate, so after a stall of the test machine (CI: two cores, other tests
   * running) two sweeps can run back to back and evict a session started just before them; at 200 ms that is
   * the test's clock, not the product's (30 minutes). A session that never answers still fails.
   */
  private String aNewSessionAnswersAPing() throws Exception {
    int lastStatus = 0;
    for (int attempt = 0; attempt < 3; attempt++) {
      String fresh = sessions.initialize("expiry");
      lastStatus = sessions.post(fresh, PING).statusCode();
      if (lastStatus == 200) {
        return fresh;
      }
      assertThat(lastStatus).as("a fresh session's ping").isEqualTo(404);
    }
    throw new AssertionError("three fresh sessions in a row were not answered (last status " + lastStatus + ")");
  }
}
