package dev.roundhouse.mcpserver.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.InProcessHub;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.mcpserver.McpServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grants are kept in the hub's store: a client signed in before a restart refreshes its tokens after it. */
class McpAuthorizationRestartTest {
  private static final String VERIFIER = "a-verifier-of-forty-three-characters-or-more-0123456789";
  private static final String REDIRECT = "http://127.0.0.1:33418/callback";

  @TempDir Path home;

  @Test
  void aGrantSurvivesAHubRestartAndAPendingSignInDoesNot() {
    String clientId;
    JsonNode tokens;
    long pendingDecision;
    try (Running first = new Running(home)) {
      OAuthClient client = new OAuthClient(first.server.url());
      clientId = client.register("Durable", REDIRECT);
      OAuthClient.Page page = client.page(client.request(clientId, REDIRECT, VERIFIER, "s"));
      first.hub.operations().invoke("decision_answer", Actor.USER, Json.tree(Map.of("decision", page.decision(), "answer", "allow")));
      String code = OAuthClient.query(client.await(page).json().path("location").asText()).get("code");
      tokens = client.token(client.codeExchange(clientId, code, REDIRECT, VERIFIER)).json();
      pendingDecision = client.page(client.request(clientId, REDIRECT, VERIFIER, "t")).decision();
    }
    try (Running second = new Running(home)) {
      OAuthClient client = new OAuthClient(second.server.url());
      OAuthClient.Reply refreshed = client.token(client.refresh(clientId, tokens.path("refresh_token").asText()));
      assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
      assertThat(client.initialize(refreshed.json().path("access_token").asText()).status()).isEqualTo(200);
      assertThat(second.hub.decisions().get(pendingDecision).orElseThrow().status()).isEqualTo("expired");
    }
  }

  /** A hub with the authorization server on a free port, over {@code home}. */
  private static final class Running implements AutoCloseable {
    final InProcessHub hub;
    final HubServer server;

    Running(Path home) {
      McpAuthorization authorization = new McpAuthorization(AuthorizationSettings.DEFAULTS);
      hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(authorization));
      server = HubServer.start(hub, Duration.ofSeconds(15), McpServers.withAuthorization(hub, authorization));
    }

    @Override
    public void close() {
      server.close();
      hub.close();
    }
  }
}
