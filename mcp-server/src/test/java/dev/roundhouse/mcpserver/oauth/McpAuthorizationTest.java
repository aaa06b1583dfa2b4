package dev.roundhouse.mcpserver.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import dev.roundhouse.mcpserver.McpServers;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The MCP endpoint's authorization server on a real hub on a free port, driven over raw HTTP as a client and its
 * browser would: discovery, registration, consent through the hub's decisions, tokens, and every refusal.
 */
class McpAuthorizationTest {
  private static final String VERIFIER = "a-verifier-of-forty-three-characters-or-more-0123456789";
  private static final String REDIRECT = "http://127.0.0.1:33418/callback";

  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));
  private TestHub hub;
  private OAuthClient client;

  private void start(AuthorizationSettings settings) {
    McpAuthorization authorization = new McpAuthorization(settings);
    hub = TestHub.withExtensionsAndMounts(this::withClock, List.of(), List.of(authorization),
        h -> McpServers.withAuthorization(h, authorization));
    client = new OAuthClient(hub.server().url());
  }

  private void start() {
    start(AuthorizationSettings.DEFAULTS);
  }

  @AfterEach
  void stop() {
    if (hub != null) {
      hub.close();
    }
  }

  @Test
  void unauthenticatedRequestPointsAtProtectedResourceMetadataOfItsOwnAuthorizationServer() {
    start();
    OAuthClient.Reply refused = client.initialize(null);
    assertThat(refused.status()).isEqualTo(401);
    assertThat(refused.raw().headers().firstValue("WWW-Authenticate").orElseThrow())
        .startsWith("Bearer ").contains("resource_metadata=\"" + client.base + "/.well-known/oauth-protected-resource\"");

    JsonNode resource = client.get("/.well-known/oauth-protected-resource").json();
    assertThat(resource.path("resource").asText()).isEqualTo(client.base + "/mcp");
    assertThat(resource.path("authorization_servers").get(0).asText()).isEqualTo(client.base);
    assertThat(client.get("/.well-known/oauth-protected-resource/mcp").json()).isEqualTo(resource);

    JsonNode server = client.get("/.well-known/oauth-authorization-server").json();
    assertThat(server.path("issuer").asText()).isEqualTo(client.base);
    assertThat(server.path("registration_endpoint").asText()).isEqualTo(client.base + "/oauth/register");
    assertThat(server.path("token_endpoint").asText()).isEqualTo(client.base + "/oauth/token");
    assertThat(server.path("code_challenge_methods_supported")).containsExactly(Json.tree("S256"));
    assertThat(server.path("token_endpoint_auth_methods_supported")).containsExactly(Json.tree("none"));
  }

  @Test
  void consentAnsweredAsHubDecisionIssuesTokensThatOpenTheMcpEndpoint() throws Exception {
    start();
    String id = client.register("Claude Code", REDIRECT);
    OAuthClient.Page page = client.page(client.request(id, REDIRECT, VERIFIER, "s1"));
    Decision decision = hub.hub().decisions().get(page.decision()).orElseThrow();
    assertThat(decision.kind()).isEqualTo(McpAuthorization.CONSENT);
    assertThat(decision.title()).isEqualTo("Allow Claude Code from 127.0.0.1:33418 to use Roundhouse as you?");
    assertThat(decision.options()).containsExactly("allow", "deny");
    JsonNode pending = hub.hub().operations().invoke("decision_list", Actor.USER, null);
    assertThat(pending.toString()).contains("Allow Claude Code from 127.0.0.1:33418");
    OAuthClient.Reply waiting = client.postForm("/oauth/authorize", Map.of("request", page.request(), "nonce", page.nonce()));
    assertThat(waiting.status()).isEqualTo(200); // no outcome yet: the page again
    assertThat(waiting.body()).contains("Allow Claude Code to use Roundhouse as you?");

    answer(page.decision(), "allow");
    String location = client.await(page).json().path("location").asText();
    assertThat(location).startsWith(REDIRECT + "?code=");
    Map<String, String> callback = OAuthClient.query(location);
    assertThat(callback).containsEntry("state", "s1").containsEntry("iss", client.base);

    OAuthClient.Reply tokens = client.token(client.codeExchange(id, callback.get("code"), REDIRECT, VERIFIER));
    assertThat(tokens.status()).as(tokens.body()).isEqualTo(200);
    assertThat(tokens.json().path("token_type").asText()).isEqualTo("Bearer");
    assertThat(tokens.json().path("expires_in").asLong()).isEqualTo(3600);
    assertThat(tokens.raw().headers().firstValue("Cache-Control")).contains("no-store");
    assertThat(client.initialize(tokens.json().path("access_token").asText()).status()).isEqualTo(200);

    // The static token keeps working for scripts.
    String mcpToken = Files.readString(McpServers.tokenFile(hub.home())).strip();
    assertThat(client.initialize(mcpToken).status()).isEqualTo(200);

    JsonNode listed = hub.hub().operations().invoke("mcp_client_list", Actor.USER, null).path("clients");
    assertThat(listed).hasSize(1);
    assertThat(listed.get(0).path("client_name").asText()).isEqualTo("Claude Code");
    assertThat(listed.get(0).path("authorized").asBoolean()).isTrue();
    // Stored by digest only: no token appears in the store's records.
    assertThat(hub.hub().operations().invoke("mcp_client_list", Actor.USER, null).toString())
        .doesNotContain(tokens.json().path("access_token").asText()).doesNotContain(tokens.json().path("refresh_token").asText());
  }

  @Test
  void deniedConsentRedirectsWithAccessDeniedAndIssuesNothing() {
    start();
    String id = client.register("Cursor", REDIRECT);
    OAuthClient.Page page = client.page(client.request(id, REDIRECT, VERIFIER, "s2"));
    answer(page.decision(), "deny");
    Map<String, String> callback = OAuthClient.query(client.await(page).json().path("location").asText());
    assertThat(callback).containsEntry("error", "access_denied").containsEntry("state", "s2").doesNotContainKey("code");
  }

  @Test
  void onlyAPersonMayAllowAClient() {
    start();
    String id = client.register("Sneaky", REDIRECT);
    OAuthClient.Page page = client.page(client.request(id, REDIRECT, VERIFIER, "s"));
    for (Actor notAPerson : List.of(Actor.client("cursor"), Actor.agent(1))) {
      assertThatThrownBy(() -> hub.hub().operations().invoke("decision_answer", notAPerson,
          Json.tree(Map.of("decision", page.decision(), "answer", "allow"))))
          .isInstanceOf(RoundhouseException.Forbidden.class).hasMessageContaining("only a person");
    }
    assertThat(hub.hub().decisions().get(page.decision()).orElseThrow().pending()).isTrue();
  }

  @Test
  void hubTokenTypedOnThePageAllowsAndAWrongOneDoesNot() {
    start();
    String id = client.register("VS Code", REDIRECT);
    OAuthClient.Page page = client.page(client.request(id, REDIRECT, VERIFIER, "s3"));
    OAuthClient.Reply wrong = client.postForm("/oauth/authorize",
        Map.of("request", page.request(), "nonce", page.nonce(), "action", "allow", "token", "not-the-token"));
    assertThat(wrong.status()).isEqualTo(200);
    assertThat(wrong.body()).contains("That is not the hub token");
    assertThat(wrong.raw().headers().firstValue("Content-Security-Policy").orElseThrow()).contains("default-src 'none'");

    OAuthClient.Reply forged = client.postForm("/oauth/authorize",
        Map.of("request", page.request(), "nonce", "forged", "action", "allow", "token", hub.hub().token()));
    assertThat(forged.status()).isEqualTo(400);
    assertThat(forged.json().path("error").asText()).isEqualTo("invalid_request");

    OAuthClient.Reply allowed = client.postForm("/oauth/authorize",
        Map.of("request", page.request(), "nonce", page.nonce(), "action", "allow", "token", hub.hub().token()));
    assertThat(allowed.status()).isEqualTo(303);
    assertThat(allowed.location()).startsWith(REDIRECT + "?code=");
    Decision closed = hub.hub().decisions().get(page.decision()).orElseThrow();
    assertThat(closed.answer()).isEqualTo("allow");
    assertThat(closed.closedBy()).isEqualTo(Actor.USER);
  }

  @Test
  void ignoredConsentExpiresItsDecisionAndIssuesNothing() {
    start(AuthorizationSettings.DEFAULTS.withLifetimes(Duration.ofHours(1), Duration.ofDays(30), Duration.ofMillis(300)));
    String id = client.register("Idle", REDIRECT);
    OAuthClient.Page page = client.page(client.request(id, REDIRECT, VERIFIER, "s4"));
    // The page's long poll ends when the consent window does.
    Map<String, String> callback = OAuthClient.query(client.await(page).json().path("location").asText());
    assertThat(callback).containsEntry("error", "access_denied").doesNotContainKey("code");
    Waits.until("the consent decision expires", Duration.ofSeconds(20),
        () -> hub.hub().decisions().get(page.decision()).orElseThrow().status().equals(Decision.EXPIRED));
    assertThatThrownBy(() -> answer(page.decision(), "allow")).isInstanceOf(RoundhouseException.Conflict.class);
  }

  @Test
  void wrongVerifierIsRefused() {
    start();
    String id = client.register("c", REDIRECT);
    String code = approvedCode(id, REDIRECT);
    OAuthClient.Reply refused = client.token(client.codeExchange(id, code, REDIRECT, VERIFIER.replace('a', 'b')));
    assertOAuthError(refused, 400, "invalid_grant", "code_verifier");
  }

  @Test
  void reusedCodeIsRefusedAndRevokesTheTokensItGave() {
    start();
    String id = client.register("c", REDIRECT);
    String code = approvedCode(id, REDIRECT);
    OAuthClient.Reply first = client.token(client.codeExchange(id, code, REDIRECT, VERIFIER));
    assertThat(first.status()).isEqualTo(200);
    OAuthClient.Reply again = client.token(client.codeExchange(id, code, REDIRECT, VERIFIER));
    assertOAuthError(again, 400, "invalid_grant", "already used");
    assertThat(client.initialize(first.json().path("access_token").asText()).status()).isEqualTo(401);
  }

  @Test
  void foreignRedirectIsRefusedWithoutRedirectingThere() {
    start();
    String id = client.register("c", REDIRECT);
    OAuthClient.Reply refused = client.authorize(client.request(id, "https://evil.example/callback", VERIFIER, "s"));
    assertOAuthError(refused, 400, "invalid_request", "not registered");
    assertThat(refused.raw().headers().firstValue("Location")).isEmpty();
    // Another loopback port is the same redirect (RFC 8252); another path is not.
    assertThat(client.authorize(client.request(id, "http://127.0.0.1:5000/callback", VERIFIER, "s")).status()).isEqualTo(200);
    assertThat(client.authorize(client.request(id, "http://127.0.0.1:5000/other", VERIFIER, "s")).status()).isEqualTo(400);

    OAuthClient.Reply plainHttp = client.postJson("/oauth/register",
        Json.write(Map.of("client_name", "x", "redirect_uris", List.of("http://evil.example/cb"))));
    assertOAuthError(plainHttp, 400, "invalid_redirect_uri", "evil.example");
  }

  @Test
  void missingOrForeignResourceIsRefused() {
    start();
    String id = client.register("c", REDIRECT);
    Map<String, String> missing = client.request(id, REDIRECT, VERIFIER, "s");
    missing.remove("resource");
    Map<String, String> noResource = OAuthClient.query(client.authorize(missing).location());
    assertThat(noResource).containsEntry("error", "invalid_target").containsEntry("state", "s");
    Map<String, String> foreign = client.request(id, REDIRECT, VERIFIER, "s");
    foreign.put("resource", "https://api.example.com/mcp");
    assertThat(OAuthClient.query(client.authorize(foreign).location())).containsEntry("error", "invalid_target");
    Map<String, String> plain = client.request(id, REDIRECT, VERIFIER, "s");
    plain.put("code_challenge_method", "plain");
    assertThat(OAuthClient.query(client.authorize(plain).location())).containsEntry("error", "invalid_request");

    String code = approvedCode(id, REDIRECT);
    Map<String, String> exchange = client.codeExchange(id, code, REDIRECT, VERIFIER);
    exchange.remove("resource");
    assertOAuthError(client.token(exchange), 400, "invalid_target", "resource");
  }

  @Test
  void expiredAccessTokenIsRefusedUntilRefreshedAndRefreshRotates() {
    start();
    String id = client.register("c", REDIRECT);
    JsonNode tokens = client.token(client.codeExchange(id, approvedCode(id, REDIRECT), REDIRECT, VERIFIER)).json();
    clock.advance(Duration.ofMinutes(61));
    OAuthClient.Reply expired = client.initialize(tokens.path("access_token").asText());
    assertThat(expired.status()).isEqualTo(401);
    assertThat(expired.raw().headers().firstValue("WWW-Authenticate").orElseThrow()).contains("error=\"invalid_token\"");

    OAuthClient.Reply refreshed = client.token(client.refresh(id, tokens.path("refresh_token").asText()));
    assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
    assertThat(client.initialize(refreshed.json().path("access_token").asText()).status()).isEqualTo(200);
    // A refresh token is good once: presenting the old one again revokes the grant (it was copied).
    assertOAuthError(client.token(client.refresh(id, tokens.path("refresh_token").asText())), 400, "invalid_grant", "already used");
    assertThat(client.initialize(refreshed.json().path("access_token").asText()).status()).isEqualTo(401);
  }

  @Test
  void refreshTokenOfAnotherClientIsRefused() {
    start();
    String owner = client.register("owner", REDIRECT);
    String thief = client.register("thief", REDIRECT);
    JsonNode tokens = client.token(client.codeExchange(owner, approvedCode(owner, REDIRECT), REDIRECT, VERIFIER)).json();
    assertOAuthError(client.token(client.refresh(thief, tokens.path("refresh_token").asText())), 400, "invalid_grant",
        "another client");
    assertThat(client.token(client.refresh(owner, tokens.path("refresh_token").asText())).status()).isEqualTo(200);
  }

  @Test
  void expiredCodeIsRefused() {
    start();
    String id = client.register("c", REDIRECT);
    String code = approvedCode(id, REDIRECT);
    clock.advance(Duration.ofSeconds(61));
    assertOAuthError(client.token(client.codeExchange(id, code, REDIRECT, VERIFIER)), 400, "invalid_grant", "expired");
  }

  @Test
  void revokedClientsTokensStopWorkingAtOnce() {
    start();
    String id = client.register("Revoked", REDIRECT);
    JsonNode tokens = client.token(client.codeExchange(id, approvedCode(id, REDIRECT), REDIRECT, VERIFIER)).json();
    assertThat(client.initialize(tokens.path("access_token").asText()).status()).isEqualTo(200);
    JsonNode revoked = hub.hub().operations().invoke("mcp_client_revoke", Actor.USER, Json.tree(Map.of("client_id", id)));
    assertThat(revoked.path("had_tokens").asBoolean()).isTrue();
    assertThat(client.initialize(tokens.path("access_token").asText()).status()).isEqualTo(401);
    assertOAuthError(client.token(client.refresh(id, tokens.path("refresh_token").asText())), 401, "invalid_client", "register");
    assertThat(hub.hub().operations().invoke("mcp_client_list", Actor.USER, null).path("clients")).isEmpty();
  }

  @Test
  void foreignOriginIsRefusedOnEveryAuthorizationRoute() {
    start();
    for (String path : List.of("/oauth/token", "/oauth/register", "/oauth/authorize")) {
      OAuthClient.Reply refused = send(HttpRequest.newBuilder(URI.create(client.base + path)).header("Origin", "https://evil.example")
          .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString("a=b")));
      assertOAuthError(refused, 403, "access_denied", "evil.example");
    }
  }

  private OAuthClient.Reply send(HttpRequest.Builder request) {
    try {
      var response = client.http.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
      return new OAuthClient.Reply(response.statusCode(), response.body(), response);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Registers nothing: signs {@code clientId} in as far as its code (consent answered through the decision). */
  private String approvedCode(String clientId, String redirect) {
    OAuthClient.Page page = client.page(client.request(clientId, redirect, VERIFIER, "st"));
    answer(page.decision(), "allow");
    return OAuthClient.query(client.await(page).json().path("location").asText()).get("code");
  }

  private void answer(long decision, String answer) {
    hub.hub().operations().invoke("decision_answer", Actor.USER, Json.tree(Map.of("decision", decision, "answer", answer)));
  }

  private static void assertOAuthError(OAuthClient.Reply reply, int status, String error, String descriptionPart) {
    assertThat(reply.status()).as(reply.body()).isEqualTo(status);
    JsonNode body = reply.json();
    assertThat(body.path("error").asText()).as(reply.body()).isEqualTo(error);
    assertThat(body.path("error_description").asText()).contains(descriptionPart);
  }

  private HubConfig withClock(HubConfig c) {
    return c.withClock(clock);
  }
}
