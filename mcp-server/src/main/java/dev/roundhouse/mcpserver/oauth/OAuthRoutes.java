package dev.roundhouse.mcpserver.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.http.HttpMount;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.ops.OperationRegistry;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The authorization server's routes on the hub's HTTP server: the two metadata documents, {@code /oauth/register},
 * {@code /oauth/authorize} (the sign-in page, its form and its long poll {@code /oauth/authorize/wait}) and
 * {@code /oauth/token}. Every request first passes the same Origin and Host checks as {@code /mcp}; no route needs a
 * bearer token (they are how a client gets one). Refusals are OAuth error JSON ({@code error},
 * {@code error_description}), or, once a redirect URI is known good, a redirect carrying them. Immutable; thread-safe.
 */
final class OAuthRoutes implements HttpMount {
  static final String PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource";
  static final String AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server";
  private static final String MCP = "/mcp";
  private static final int MAX_BODY = 64 * 1024;
  private static final int MAX_TOKEN_TRIES = 5;
  private static final Duration LONG_POLL = Duration.ofSeconds(20);
  private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "[::1]", "::1", "localhost");

  private final McpAuthorization authorization;
  private final McpAuthorization.BrowserCheck browser;
  private final Supplier<String> hubToken;
  private final OperationRegistry operations;
  private final boolean loopbackOnly;

  OAuthRoutes(McpAuthorization authorization, McpAuthorization.BrowserCheck browser, Supplier<String> hubToken,
      OperationRegistry operations, boolean loopbackOnly) {
    this.authorization = authorization;
    this.browser = browser;
    this.hubToken = hubToken;
    this.operations = operations;
    this.loopbackOnly = loopbackOnly;
  }

  @Override
  public String prefix() {
    return "/oauth";
  }

  @Override
  public boolean serves(String path) {
    return HttpMount.super.serves(path) || path.equals(AUTHORIZATION_SERVER) || path.equals(PROTECTED_RESOURCE)
        || path.equals(PROTECTED_RESOURCE + MCP);
  }

  @Override
  public HttpHandler handler() {
    return this::handle;
  }

  private void handle(HttpServerExchange exchange) {
    try {
      for (String header : new String[] {"Origin", "Host"}) {
        if (exchange.getRequestHeaders().count(header) > 1) {
          throw new OAuthRefusal(403, "access_denied", "the request has more than one " + header + " header");
        }
      }
      Optional<String> refused = browser.refusal(name -> exchange.getRequestHeaders().getFirst(name));
      if (refused.isPresent()) {
        throw new OAuthRefusal(403, "access_denied", refused.get());
      }
      route(exchange);
    } catch (OAuthRefusal refusal) {
      error(exchange, refusal);
    } catch (RoundhouseException e) {
      error(exchange, new OAuthRefusal(400, "invalid_request", e.getMessage()));
    } catch (IOException e) {
      error(exchange, new OAuthRefusal(400, "invalid_request", "cannot read the request: " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      error(exchange, new OAuthRefusal(503, "temporarily_unavailable", "the hub is stopping"));
    } catch (RuntimeException e) {
      error(exchange, new OAuthRefusal(500, "server_error", "the authorization server failed: " + e.getClass().getSimpleName()));
    }
  }

  private void route(HttpServerExchange exchange) throws IOException, InterruptedException {
    String path = exchange.getRequestPath();
    HttpString method = exchange.getRequestMethod();
    String base = base(exchange);
    switch (path) {
      case PROTECTED_RESOURCE, PROTECTED_RESOURCE + MCP -> {
        get(method);
        json(exchange, 200, Map.of("resource", base + MCP, "authorization_servers", List.of(base),
            "bearer_methods_supported", List.of("header"), "resource_name", "Roundhouse"));
      }
      case AUTHORIZATION_SERVER -> {
        get(method);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("issuer", base);
        metadata.put("authorization_endpoint", base + "/oauth/authorize");
        metadata.put("token_endpoint", base + "/oauth/token");
        metadata.put("registration_endpoint", base + "/oauth/register");
        metadata.put("response_types_supported", List.of("code"));
        metadata.put("grant_types_supported", List.of("authorization_code", "refresh_token"));
        metadata.put("code_challenge_methods_supported", List.of("S256"));
        metadata.put("token_endpoint_auth_methods_supported", List.of("none"));
        metadata.put("authorization_response_iss_parameter_supported", true);
        json(exchange, 200, metadata);
      }
      case "/oauth/register" -> {
        post(method);
        register(exchange);
      }
      case "/oauth/authorize" -> {
        if (method.equals(Methods.GET)) {
          authorize(exchange, base);
        } else {
          post(method);
          answer(exchange);
        }
      }
      case "/oauth/authorize/wait" -> {
        post(method);
        await(exchange);
      }
      case "/oauth/token" -> {
        post(method);
        token(exchange);
      }
      default -> throw new OAuthRefusal(404, "invalid_request", "no route " + method + " " + path + "; see docs/mcp.md");
    }
  }

  private void register(HttpServerExchange exchange) throws IOException {
    JsonNode metadata;
    try {
      metadata = Json.readStrict(body(exchange).getBytes(StandardCharsets.UTF_8));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new OAuthRefusal(400, "invalid_client_metadata", "the registration body is not JSON");
    }
    Clients.Client client = authorization.clients().register(metadata, id -> authorization.grants().of(id).isPresent());
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("client_id", client.clientId());
    answer.put("client_id_issued_at", client.registeredAt().getEpochSecond());
    answer.put("client_name", client.clientName());
    answer.put("redirect_uris", client.redirectUris());
    answer.put("grant_types", List.of("authorization_code", "refresh_token"));
    answer.put("response_types", List.of("code"));
    answer.put("token_endpoint_auth_method", "none");
    json(exchange, 201, answer);
  }

  private void authorize(HttpServerExchange exchange, String base) {
    Map<String, String> query = Forms.parse(exchange.getQueryString());
    Clients.Client client = authorization.clients().get(query.get("client_id")).orElseThrow(() -> OAuthRefusal.invalidRequest(
        "unknown client_id '" + query.getOrDefault("client_id", "") + "'; the client must register at /oauth/register first"));
    String redirect = query.get("redirect_uri");
    if (redirect == null && client.redirectUris().size() == 1) {
      redirect = client.redirectUris().get(0);
    }
    if (!Clients.allows(client, redirect)) {
      throw OAuthRefusal.invalidRequest("redirect_uri '" + redirect + "' is not registered for " + client.clientName()
          + " (loopback http URIs match at any port; others exactly)");
    }
    String state = query.get("state");
    Optional<OAuthRefusal> refused = checkAuthorizationRequest(query, exchange);
    if (refused.isPresent()) {
      Map<String, String> error = new LinkedHashMap<>();
      error.put("error", refused.get().code());
      error.put("error_description", refused.get().getMessage());
      if (state != null) {
        error.put("state", state);
      }
      error.put("iss", base);
      redirect(exchange, Forms.appendQuery(redirect, error));
      return;
    }
    Consents.SignIn signIn = authorization.consents().open(new Consents.Request(client, redirect, query.get("code_challenge"),
        state, query.get("resource"), base));
    page(exchange, 200, signIn, null);
  }

  private Optional<OAuthRefusal> checkAuthorizationRequest(Map<String, String> query, HttpServerExchange exchange) {
    if (!"code".equals(query.get("response_type"))) {
      return Optional.of(new OAuthRefusal(400, "unsupported_response_type", "response_type must be code"));
    }
    if (query.get("code_challenge") == null) {
      return Optional.of(OAuthRefusal.invalidRequest("PKCE is required: send code_challenge with code_challenge_method S256"));
    }
    if (!"S256".equals(query.get("code_challenge_method"))) {
      return Optional.of(OAuthRefusal.invalidRequest("code_challenge_method must be S256 (plain is refused)"));
    }
    if (!Secrets.validChallenge(query.get("code_challenge"))) {
      return Optional.of(OAuthRefusal.invalidRequest("code_challenge must be 43 base64url characters (a SHA-256)"));
    }
    return checkResource(query.get("resource"), exchange);
  }

  /** Refuses a resource indicator that is missing or is not this hub's {@code /mcp} (RFC 8707). */
  private Optional<OAuthRefusal> checkResource(String resource, HttpServerExchange exchange) {
    if (resource == null || resource.isBlank()) {
      return Optional.of(OAuthRefusal.invalidTarget("the resource parameter is missing; it must be " + base(exchange) + MCP));
    }
    if (!denotesThisHub(resource, exchange.getRequestHeaders().getFirst("Host"), exchange.getDestinationAddress().getPort(),
        loopbackOnly)) {
      return Optional.of(OAuthRefusal.invalidTarget("the resource '" + resource + "' is not this hub's MCP endpoint "
          + base(exchange) + MCP));
    }
    return Optional.empty();
  }

  /**
   * Whether {@code resource} is this hub's MCP endpoint: {@code http(s)://<host>:<port>/mcp} with this server's
   * port, and a loopback host (or, when the hub is reachable from other machines, the request's own host).
   */
  static boolean denotesThisHub(String resource, String requestHost, int port, boolean loopbackOnly) {
    try {
      URI uri = new URI(resource);
      String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
      boolean hostOk = loopbackOnly ? LOOPBACK.contains(host)
          : LOOPBACK.contains(host) || (requestHost != null && requestHost.toLowerCase(Locale.ROOT).startsWith(host + ":"));
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && hostOk && uri.getPort() == port
          && (MCP.equals(uri.getRawPath()) || (MCP + "/").equals(uri.getRawPath()))
          && uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private void answer(HttpServerExchange exchange) throws IOException, InterruptedException {
    Map<String, String> form = Forms.parse(body(exchange));
    Consents.SignIn signIn = signIn(form);
    String action = form.getOrDefault("action", "continue");
    String notice = null;
    if (action.equals(McpAuthorization.DENY)) {
      decide(signIn, McpAuthorization.DENY, "denied on the sign-in page");
    } else if (action.equals(McpAuthorization.ALLOW)) {
      String token = form.getOrDefault("token", "").strip();
      if (signIn.tokenTries.incrementAndGet() > MAX_TOKEN_TRIES) {
        decide(signIn, McpAuthorization.DENY, "denied after " + MAX_TOKEN_TRIES + " wrong hub tokens on the sign-in page");
      } else if (!token.isEmpty() && Secrets.same(token, hubToken.get())) {
        decide(signIn, McpAuthorization.ALLOW, "allowed on the sign-in page with the hub token");
      } else {
        notice = "That is not the hub token. It is the file named token in the hub's home (~/.roundhouse by default).";
      }
    }
    Optional<String> next = authorization.consents().await(signIn, Duration.ZERO);
    if (next.isPresent()) {
      redirect(exchange, next.get());
    } else {
      page(exchange, 200, signIn, notice);
    }
  }

  private void await(HttpServerExchange exchange) throws IOException, InterruptedException {
    Consents.SignIn signIn = signIn(Forms.parse(body(exchange)));
    Optional<String> next = authorization.consents().await(signIn, LONG_POLL);
    json(exchange, 200, next.isPresent() ? Map.of("location", next.get()) : Map.of("status", "pending"));
  }

  private void token(HttpServerExchange exchange) throws IOException {
    Map<String, String> form = Forms.parse(body(exchange));
    String clientId = form.get("client_id");
    String basic = exchange.getRequestHeaders().getFirst("Authorization");
    if (clientId == null && basic != null && basic.regionMatches(true, 0, "Basic ", 0, 6)) {
      try {
        String pair = new String(Base64.getDecoder().decode(basic.substring(6).strip()), StandardCharsets.UTF_8);
        clientId = java.net.URLDecoder.decode(pair.substring(0, Math.max(0, pair.indexOf(':'))), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw OAuthRefusal.invalidClient("the Basic authorization header is malformed");
      }
    }
    String id = clientId;
    authorization.clients().get(id).orElseThrow(() -> OAuthRefusal.invalidClient(
        id == null ? "client_id is missing" : "unknown client_id '" + id + "'; register again at /oauth/register"));
    String resource = form.get("resource");
    Grants.Issued issued = switch (form.getOrDefault("grant_type", "")) {
      case "authorization_code" -> {
        Consents.Code code = authorization.consents().redeem(form.get("code"), id, form.get("redirect_uri"),
            form.get("code_verifier"), resource, reused -> authorization.grants().revoke(reused));
        yield authorization.grants().issue(id, code.resource());
      }
      case "refresh_token" -> {
        String refresh = form.get("refresh_token");
        if (refresh == null || refresh.isBlank()) {
          throw OAuthRefusal.invalidRequest("the refresh_token parameter is missing");
        }
        Optional<OAuthRefusal> foreign = checkResource(resource, exchange);
        if (foreign.isPresent()) {
          throw foreign.get();
        }
        yield authorization.grants().refresh(id, refresh, resource);
      }
      case "" -> throw OAuthRefusal.invalidRequest("grant_type is missing");
      default -> throw new OAuthRefusal(400, "unsupported_grant_type",
          "grant_type '" + form.get("grant_type") + "' is not supported; use authorization_code or refresh_token");
    };
    json(exchange, 200, Map.of("access_token", issued.accessToken(), "token_type", "Bearer", "expires_in", issued.expiresIn(),
        "refresh_token", issued.refreshToken()));
  }

  private Consents.SignIn signIn(Map<String, String> form) {
    return authorization.consents().find(form.get("request"), form.get("nonce")).orElseThrow(() -> OAuthRefusal.invalidRequest(
        "this sign-in is unknown or over (expired, answered, or the hub restarted); start it again from the client"));
  }

  /** Answers the sign-in's decision as the person at this browser; a decision already closed stays as it is. */
  private void decide(Consents.SignIn signIn, String answer, String message) {
    try {
      operations.call("decision_answer", Actor.USER, Map.of("decision", signIn.decision, "answer", answer, "message", message),
          Decision.class);
    } catch (RoundhouseException.Conflict e) {
      // answered elsewhere or expired meanwhile: the outcome stands
    }
  }

  private void page(HttpServerExchange exchange, int status, Consents.SignIn signIn, String notice) {
    String scriptNonce = Secrets.mint(authorization.settings().random(), "").substring(0, 22);
    headers(exchange, "text/html; charset=utf-8");
    exchange.getResponseHeaders().put(new HttpString("Content-Security-Policy"), AuthorizePage.policy(scriptNonce));
    exchange.getResponseHeaders().put(new HttpString("X-Frame-Options"), "DENY");
    exchange.getResponseHeaders().put(new HttpString("Referrer-Policy"), "no-referrer");
    exchange.setStatusCode(status);
    exchange.getResponseSender().send(AuthorizePage.render(signIn, notice, scriptNonce));
  }

  private static void redirect(HttpServerExchange exchange, String location) {
    headers(exchange, "text/plain; charset=utf-8");
    exchange.getResponseHeaders().put(new HttpString("Location"), location);
    exchange.setStatusCode(303);
    exchange.getResponseSender().send("");
  }

  private static void error(HttpServerExchange exchange, OAuthRefusal refusal) {
    if (exchange.isResponseStarted()) {
      return;
    }
    if (refusal.status() == 401) {
      exchange.getResponseHeaders().put(new HttpString("WWW-Authenticate"), "Basic realm=\"roundhouse-oauth\"");
    }
    json(exchange, refusal.status(), Map.of("error", refusal.code(), "error_description", refusal.getMessage()));
  }

  private static void json(HttpServerExchange exchange, int status, Object body) {
    headers(exchange, "application/json");
    exchange.setStatusCode(status);
    exchange.getResponseSender().send(Json.write(body));
  }

  private static void headers(HttpServerExchange exchange, String type) {
    exchange.getResponseHeaders().put(new HttpString("Content-Type"), type);
    exchange.getResponseHeaders().put(new HttpString("Cache-Control"), "no-store");
    exchange.getResponseHeaders().put(new HttpString("X-Content-Type-Options"), "nosniff");
  }

  private static void get(HttpString method) {
    if (!method.equals(Methods.GET)) {
      throw new OAuthRefusal(405, "invalid_request", "use GET here, not " + method);
    }
  }

  private static void post(HttpString method) {
    if (!method.equals(Methods.POST)) {
      throw new OAuthRefusal(405, "invalid_request", "use POST here, not " + method);
    }
  }

  private static String body(HttpServerExchange exchange) throws IOException {
    if (!exchange.isBlocking()) {
      exchange.startBlocking();
    }
    InputStream in = exchange.getInputStream();
    byte[] bytes = in.readNBytes(MAX_BODY + 1);
    if (bytes.length > MAX_BODY) {
      throw new OAuthRefusal(413, "invalid_request", "the request body is larger than " + MAX_BODY + " bytes");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** The base URL this request reached the hub at: its scheme and {@code Host} (checked by the browser check). */
  static String base(HttpServerExchange exchange) {
    return exchange.getRequestScheme() + "://" + exchange.getHostAndPort();
  }
}
