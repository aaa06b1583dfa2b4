package dev.roundhouse.mcpserver.oauth;

import dev.roundhouse.hub.core.Durations;
import dev.roundhouse.hub.core.RoundhouseException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.Random;

/**
 * How the MCP endpoint's authorization server times its grants (see docs/configuration.md). Immutable.
 *
 * @param accessTokenLifetime how long an access token is accepted ({@code ROUNDHOUSE_MCP_ACCESS_TOKEN_TTL}, 1h)
 * @param refreshTokenLifetime how long a refresh token may be used ({@code ROUNDHOUSE_MCP_REFRESH_TOKEN_TTL}, 720h);
 *     each use replaces it with a new one of the same lifetime
 * @param consentTimeout how long a sign-in waits for its consent decision before it expires and issues nothing
 *     ({@code ROUNDHOUSE_MCP_CONSENT_TIMEOUT}, 5m)
 * @param codeLifetime how long an authorization code may be exchanged (60 s)
 * @param random where every secret comes from: a {@link SecureRandom} outside tests
 */
public record AuthorizationSettings(
    Duration accessTokenLifetime, Duration refreshTokenLifetime, Duration consentTimeout, Duration codeLifetime, Random random) {

  public static final AuthorizationSettings DEFAULTS = new AuthorizationSettings(
      Duration.ofHours(1), Duration.ofDays(30), Duration.ofMinutes(5), Duration.ofSeconds(60), new SecureRandom());

  /**
   * The defaults, changed by {@code ROUNDHOUSE_MCP_ACCESS_TOKEN_TTL}, {@code ROUNDHOUSE_MCP_REFRESH_TOKEN_TTL} and
   * {@code ROUNDHOUSE_MCP_CONSENT_TIMEOUT} in {@code env}.
   *
   * @throws RoundhouseException.InvalidInput naming a variable whose value is not a positive duration
   */
  public static AuthorizationSettings load(Map<String, String> env) {
    return new AuthorizationSettings(
        duration(env, "ROUNDHOUSE_MCP_ACCESS_TOKEN_TTL", DEFAULTS.accessTokenLifetime()),
        duration(env, "ROUNDHOUSE_MCP_REFRESH_TOKEN_TTL", DEFAULTS.refreshTokenLifetime()),
        duration(env, "ROUNDHOUSE_MCP_CONSENT_TIMEOUT", DEFAULTS.consentTimeout()),
        DEFAULTS.codeLifetime(), DEFAULTS.random());
  }

  /** These settings with other lifetimes (tests). */
  public AuthorizationSettings withLifetimes(Duration access, Duration refresh, Duration consent) {
    return new AuthorizationSettings(access, refresh, consent, codeLifetime, random);
  }

  private static Duration duration(Map<String, String> env, String name, Duration fallback) {
    String text = env.get(name);
    if (text == null || text.isBlank()) {
      return fallback;
    }
    Duration value;
    try {
      value = Durations.parse(text.strip());
    } catch (RuntimeException e) {
      throw new RoundhouseException.InvalidInput(name + " is '" + text + "', not a duration such as 90s, 20m, 1h or 720h");
    }
    if (value.isZero() || value.isNegative()) {
      throw new RoundhouseException.InvalidInput(name + " must be longer than zero, not '" + text + "'");
    }
    return value;
  }
}
