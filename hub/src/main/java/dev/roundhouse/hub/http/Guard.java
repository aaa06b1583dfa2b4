package dev.roundhouse.hub.http;

import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.RoundhouseException;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The checks every request passes before it reaches a route: a present and foreign {@code Origin} is
 * refused, and so is a {@code Host} that is not this machine when bound to loopback (both defend against
 * DNS rebinding), and so is a request with more than one of either; then the bearer token, on every route but the health check.
 * The token comes in {@code Authorization: Bearer}, or, on a WebSocket upgrade only, as the subprotocol
 * {@code roundhouse.token.<token>} beside the real one (browsers' {@code WebSocket} cannot set headers); the
 * guard removes that entry from the request so that no handler echoes or forwards it. Never in the query
 * string, which ends up in logs. Immutable; thread-safe.
 */
final class Guard {
  /** The prefix of the subprotocol that carries the token on a WebSocket upgrade: {@code roundhouse.token.<token>}. */
  static final String TOKEN_SUBPROTOCOL = "roundhouse.token.";

  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final byte[] token;
  private final Set<String> allowedOrigins;
  private final boolean checkHost;
  /** Accepted by {@code GET /metrics} only; null when none is set. */
  private final byte[] metricsToken;

  Guard(String token, HubConfig config) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
    this.allowedOrigins =
        Set.copyOf(config.allowedOrigins().stream().map(o -> o.toLowerCase(Locale.ROOT)).toList());
    this.checkHost = !config.allowRemote();
    this.metricsToken = config.metricsToken() == null ? null : config.metricsToken().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The checks of {@code GET /metrics}: origin and host as for every route, then a bearer token that is the
   * hub's or the read-only metrics token ({@code ROUNDHOUSE_METRICS_TOKEN}), which no other route accepts.
   */
  void checkMetrics(HttpServerExchange exchange) {
    check(exchange, false);
    String authorization = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
    if (metricsToken != null && authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
        && MessageDigest.isEqual(authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8), metricsToken)) {
      return;
    }
    checkToken(exchange);
  }

  /** Throws a {@link RoundhouseException.Forbidden} naming the reason when the request may not pass. */
  void check(HttpServerExchange exchange, boolean needsToken) {
    // One value each, or the check below reads the first and another layer (a proxy, a browser) may read the last.
    if (exchange.getRequestHeaders().count(Headers.ORIGIN) > 1) {
      throw new RoundhouseException.Forbidden(
          "origin_refused", "the request has " + exchange.getRequestHeaders().count(Headers.ORIGIN) + " Origin headers; at most one is accepted");
    }
    if (exchange.getRequestHeaders().count(Headers.HOST) > 1) {
      throw new RoundhouseException.Forbidden(
          "host_refused", "the request has " + exchange.getRequestHeaders().count(Headers.HOST) + " Host headers; exactly one is accepted");
    }
    String origin = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
    if (origin != null && !originAllowed(origin)) {
      throw new RoundhouseException.Forbidden(
          "origin_refused",
          "requests from the browser origin '" + origin + "' are refused; allow it with ROUNDHOUSE_ALLOWED_ORIGINS");
    }
    String host = exchange.getRequestHeaders().getFirst(Headers.HOST);
    if (checkHost && host != null && !LOOPBACK_HOSTS.contains(hostName(host))) {
      throw new RoundhouseException.Forbidden(
          "host_refused", "the Host '" + host + "' is not this machine; use 127.0.0.1 or localhost");
    }
    if (needsToken) {
      checkToken(exchange);
    }
    // Whatever passed, no later handler (a module's WebSocket, a proxied dev server) sees the token as a subprotocol.
    stripTokenSubprotocols(exchange);
  }

  private void checkToken(HttpServerExchange exchange) {
    String authorization = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
    if (authorization == null) {
      List<String> offered = tokenSubprotocols(exchange);
      if (!offered.isEmpty()) {
        checkSubprotocolToken(exchange, offered);
        return;
      }
    }
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer realm=\"roundhouse\"");
      throw new RoundhouseException.Forbidden(
          "unauthorized",
          "missing 'Authorization: Bearer <token>'; the token is in $ROUNDHOUSE_HOME/token");
    }
    byte[] presented = authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(presented, token)) {
      exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer realm=\"roundhouse\", error=\"invalid_token\"");
      throw new RoundhouseException.Forbidden("unauthorized", "the bearer token is not this hub's token");
    }
  }

  /**
   * The token as a WebSocket subprotocol ({@code Sec-WebSocket-Protocol: roundhouse.pty, roundhouse.token.<token>}),
   * for clients that cannot set a header on an upgrade (a browser's {@code WebSocket}). Accepted only on a GET
   * that asks to become a WebSocket: on any other request it is not a credential.
   */
  private void checkSubprotocolToken(HttpServerExchange exchange, List<String> offered) {
    if (!isWebSocketUpgrade(exchange)) {
      exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer realm=\"roundhouse\"");
      throw new RoundhouseException.Forbidden(
          "unauthorized",
          "the token as a '" + TOKEN_SUBPROTOCOL + "…' subprotocol is accepted only on a WebSocket upgrade; "
              + "send 'Authorization: Bearer <token>'");
    }
    if (offered.size() > 1) {
      throw new RoundhouseException.Forbidden(
          "unauthorized", "the upgrade offers " + offered.size() + " '" + TOKEN_SUBPROTOCOL + "…' subprotocols; at most one is accepted");
    }
    byte[] presented = offered.getFirst().substring(TOKEN_SUBPROTOCOL.length()).getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(presented, token)) {
      exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer realm=\"roundhouse\", error=\"invalid_token\"");
      throw new RoundhouseException.Forbidden("unauthorized", "the token in the '" + TOKEN_SUBPROTOCOL + "…' subprotocol is not this hub's token");
    }
  }

  private static boolean isWebSocketUpgrade(HttpServerExchange exchange) {
    HeaderMap headers = exchange.getRequestHeaders();
    if (!Methods.GET.equals(exchange.getRequestMethod())
        || headers.count(Headers.UPGRADE) != 1
        || !"websocket".equalsIgnoreCase(headers.getFirst(Headers.UPGRADE).strip())
        || headers.getFirst(Headers.SEC_WEB_SOCKET_KEY) == null) {
      return false;
    }
    HeaderValues connection = headers.get(Headers.CONNECTION);
    return connection != null && connection.stream()
        .flatMap(value -> Arrays.stream(value.split(",")))
        .anyMatch(option -> option.strip().equalsIgnoreCase("upgrade"));
  }

  /** Every {@code roundhouse.token.…} entry of every {@code Sec-WebSocket-Protocol} header. */
  private static List<String> tokenSubprotocols(HttpServerExchange exchange) {
    HeaderValues values = exchange.getRequestHeaders().get(Headers.SEC_WEB_SOCKET_PROTOCOL);
    if (values == null) {
      return List.of();
    }
    return values.stream()
        .flatMap(value -> Arrays.stream(value.split(",")))
        .map(String::strip)
        .filter(protocol -> protocol.startsWith(TOKEN_SUBPROTOCOL))
        .toList();
  }

  /** Removes the token entries, keeping the real subprotocols (the one a handshake may echo) in their order. */
  private static void stripTokenSubprotocols(HttpServerExchange exchange) {
    HeaderValues values = exchange.getRequestHeaders().get(Headers.SEC_WEB_SOCKET_PROTOCOL);
    if (values == null) {
      return;
    }
    String rest = values.stream()
        .flatMap(value -> Arrays.stream(value.split(",")))
        .map(String::strip)
        .filter(protocol -> !protocol.isEmpty() && !protocol.startsWith(TOKEN_SUBPROTOCOL))
        .collect(Collectors.joining(", "));
    if (rest.isEmpty()) {
      exchange.getRequestHeaders().remove(Headers.SEC_WEB_SOCKET_PROTOCOL);
    } else {
      exchange.getRequestHeaders().put(Headers.SEC_WEB_SOCKET_PROTOCOL, rest);
    }
  }

  /** True when the request presents this hub's token (the health check answers more to it). */
  boolean presentsToken(HttpServerExchange exchange) {
    String authorization = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
    return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
        && MessageDigest.isEqual(authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8), token);
  }

  private boolean originAllowed(String origin) {
    String normalized = origin.strip().toLowerCase(Locale.ROOT);
    if (allowedOrigins.contains(normalized)) {
      return true;
    }
    try {
      URI uri = URI.create(normalized);
      String scheme = uri.getScheme();
      return ("http".equals(scheme) || "https".equals(scheme))
          && uri.getHost() != null
          && LOOPBACK_HOSTS.contains(uri.getHost())
          && uri.getPath() != null
          && (uri.getPath().isEmpty());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String hostName(String hostHeader) {
    String host = hostHeader.strip().toLowerCase(Locale.ROOT);
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end < 0 ? host : host.substring(0, end + 1);
    }
    int colon = host.lastIndexOf(':');
    return colon < 0 ? host : host.substring(0, colon);
  }
}
