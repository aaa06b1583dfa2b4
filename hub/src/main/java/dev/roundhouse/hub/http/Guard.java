package dev.roundhouse.hub.http;

import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.RoundhouseException;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Set;

/**
 * The checks every request passes before it reaches a route: a present and foreign {@code Origin} is
 * refused, and so is a {@code Host} that is not this machine when bound to loopback (both defend against
 * DNS rebinding), and so is a request with more than one of either; then the bearer token, on every route but the health check. Immutable; thread-safe.
 */
final class Guard {
  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final byte[] token;
  private final Set<String> allowedOrigins;
  private final boolean checkHost;

  Guard(String token, HubConfig config) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
    this.allowedOrigins =
        Set.copyOf(config.allowedOrigins().stream().map(o -> o.toLowerCase(Locale.ROOT)).toList());
    this.checkHost = !config.allowRemote();
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
      String authorization = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
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
