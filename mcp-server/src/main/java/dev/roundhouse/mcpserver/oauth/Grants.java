package dev.roundhouse.mcpserver.oauth;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.model.ExtensionRecord;
import dev.roundhouse.hub.spi.ExtensionRecords;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The tokens the authorization server issued: one grant per client (an access token and a refresh token, for one
 * resource), kept in the hub's store under {@code grant/<client_id>} by their SHA-256 digests only, and indexed
 * in memory so a request is checked without a store read. A new grant replaces the client's old one; using a
 * refresh token replaces both tokens (rotation), and presenting a rotated-out one again revokes the grant (it
 * was copied). The hub's restart keeps grants; {@link #revoke} ends one at once.
 *
 * <p>Thread-safe: the indexes are concurrent maps; a refresh token is claimed by removing it from its index, so
 * two uses of the same one cannot both succeed. Store writes happen outside any lock; the short memory of
 * rotated-out refresh tokens is guarded by a lock held only for map updates.
 */
final class Grants {
  private static final String PREFIX = "grant/";
  private static final int REMEMBERED_ROTATED = 1024;

  private final ExtensionRecords records;
  private final Clock clock;
  private final AuthorizationSettings settings;
  private final Map<String, Grant> byClient = new ConcurrentHashMap<>();
  private final Map<String, Grant> byAccess = new ConcurrentHashMap<>();
  private final Map<String, Grant> byRefresh = new ConcurrentHashMap<>();
  private final ReentrantLock rotatedLock = Locks.tracked("rotated MCP refresh tokens");

  @GuardedBy("rotatedLock")
  private final Map<String, String> rotated = new LinkedHashMap<>(16, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > REMEMBERED_ROTATED;
    }
  };

  /** A client's tokens, as stored (digests only). */
  record Grant(String clientId, String resource, String accessDigest, Instant accessExpiresAt, String refreshDigest,
      Instant refreshExpiresAt, Instant grantedAt, Instant refreshedAt) {}

  /** Tokens as handed to a client once; never stored. */
  record Issued(String accessToken, String refreshToken, long expiresIn, Grant grant) {}

  /** What a presented access token is. */
  sealed interface Check {}

  record Valid(Grant grant) implements Check {}

  record Expired(String clientId) implements Check {}

  record Unknown() implements Check {}

  Grants(ExtensionRecords records, Clock clock, AuthorizationSettings settings) {
    this.records = records;
    this.clock = clock;
    this.settings = settings;
    for (ExtensionRecord record : records.list(PREFIX)) {
      index(Json.mapper().convertValue(record.value(), Grant.class));
    }
  }

  /** Issues a new grant to {@code clientId} for {@code resource}, replacing the one it held. */
  Issued issue(String clientId, String resource) {
    Instant now = clock.instant();
    return store(clientId, resource, now, now);
  }

  /**
   * Replaces the grant that {@code refreshToken} belongs to with new tokens for {@code resource}, when it is
   * {@code clientId}'s and unexpired. The caller has checked that {@code resource} is this hub's MCP endpoint: a
   * grant is for the hub wherever it listens now (a hub started with {@code --port 0} moves), not for one URL.
   *
   * @throws OAuthRefusal {@code invalid_grant}, saying why
   */
  Issued refresh(String clientId, String refreshToken, String resource) {
    String digest = Secrets.digest(refreshToken);
    Grant grant = byRefresh.remove(digest);
    if (grant == null) {
      String copiedFrom = rotatedOwner(digest);
      if (copiedFrom != null) {
        revoke(copiedFrom);
        throw OAuthRefusal.invalidGrant("this refresh token was already used once; the grant it belonged to is revoked");
      }
      throw OAuthRefusal.invalidGrant("unknown or revoked refresh token");
    }
    if (!grant.clientId().equals(clientId)) {
      byRefresh.putIfAbsent(digest, grant);
      throw OAuthRefusal.invalidGrant("this refresh token was issued to another client");
    }
    if (!clock.instant().isBefore(grant.refreshExpiresAt())) {
      revoke(clientId);
      throw OAuthRefusal.invalidGrant("the refresh token expired at " + grant.refreshExpiresAt() + "; sign in again");
    }
    rotatedLock.lock();
    try {
      rotated.put(digest, clientId);
    } finally {
      rotatedLock.unlock();
    }
    return store(clientId, resource, grant.grantedAt(), clock.instant());
  }

  Check check(String accessToken) {
    Grant grant = byAccess.get(Secrets.digest(accessToken));
    if (grant == null) {
      return new Unknown();
    }
    return clock.instant().isBefore(grant.accessExpiresAt()) ? new Valid(grant) : new Expired(grant.clientId());
  }

  Optional<Grant> of(String clientId) {
    return Optional.ofNullable(byClient.get(clientId));
  }

  List<Grant> list() {
    return List.copyOf(byClient.values());
  }

  /** Ends {@code clientId}'s grant: both its tokens stop working at once. True when it had one. */
  boolean revoke(String clientId) {
    Grant grant = byClient.remove(clientId);
    if (grant != null) {
      unindex(grant);
    }
    boolean stored = records.delete(PREFIX + clientId);
    return grant != null || stored;
  }

  private Issued store(String clientId, String resource, Instant grantedAt, Instant now) {
    String access = Secrets.mint(settings.random(), "rh_mcp_at_");
    String refresh = Secrets.mint(settings.random(), "rh_mcp_rt_");
    Grant grant = new Grant(clientId, resource, Secrets.digest(access), now.plus(settings.accessTokenLifetime()),
        Secrets.digest(refresh), now.plus(settings.refreshTokenLifetime()), grantedAt, now);
    records.put(PREFIX + clientId, grant);
    index(grant);
    return new Issued(access, refresh, settings.accessTokenLifetime().toSeconds(), grant);
  }

  private void index(Grant grant) {
    byAccess.put(grant.accessDigest(), grant);
    byRefresh.put(grant.refreshDigest(), grant);
    Grant old = byClient.put(grant.clientId(), grant);
    if (old != null && old != grant) {
      unindex(old);
    }
  }

  private void unindex(Grant grant) {
    byAccess.remove(grant.accessDigest(), grant);
    byRefresh.remove(grant.refreshDigest(), grant);
  }

  private String rotatedOwner(String digest) {
    rotatedLock.lock();
    try {
      return rotated.remove(digest);
    } finally {
      rotatedLock.unlock();
    }
  }
}
