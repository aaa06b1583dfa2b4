package dev.roundhouse.mcpserver;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.api.AgentToolsApi;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.hub.spi.AgentEndpoints;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Task-scoped bearer tokens for turns' agents: {@link #open} mints 256 random bits for a task, {@link #close}
 * revokes them. Tokens live in memory only (a hub restart ends every turn, and with it every token) and are
 * kept by their SHA-256 digest, so no token is ever held in a form a log line or heap dump could echo. The
 * endpoint URL is the hub's published base URL plus {@code /mcp} (a wildcard bind address is replaced by
 * loopback: agents run on this machine).
 *
 * <p>Thread-safe: live tokens are a concurrent map; the short memory of revoked ones (so a late request gets
 * "revoked" rather than "unknown") is guarded by a lock held only for map updates.
 */
final class AgentTokens implements AgentEndpoints {
  private static final int REMEMBERED_REVOKED = 1024;

  private final Hub hub;
  private final Random random;
  private final Map<String, Long> live = new ConcurrentHashMap<>();
  private final ReentrantLock revokedLock = Locks.tracked("revoked agent tokens");

  @GuardedBy("revokedLock")
  private final Map<String, Long> revoked = new LinkedHashMap<>(16, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > REMEMBERED_REVOKED;
    }
  };

  /** What a presented token is. */
  sealed interface Lookup {}

  record Live(long task) implements Lookup {}

  record Revoked(long task) implements Lookup {}

  record Unknown() implements Lookup {}

  /** @param random the source of token bits: a {@link java.security.SecureRandom} outside tests */
  AgentTokens(Hub hub, Random random) {
    this.hub = hub;
    this.random = random;
  }

  @Override
  public Optional<AgentEndpoint> open(long taskId) {
    Optional<String> base = hub.publishedUrl();
    if (base.isEmpty()) {
      return Optional.empty();
    }
    byte[] bits = new byte[32];
    random.nextBytes(bits);
    String token = "rh_agent_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
    live.put(digest(token), taskId);
    return Optional.of(new AgentEndpoint(URI.create(loopback(base.get()) + McpServers.PATH), token, taskId));
  }

  @Override
  public void close(AgentEndpoint endpoint) {
    String key = digest(endpoint.bearerToken());
    Long task = live.remove(key);
    if (task != null) {
      revokedLock.lock();
      try {
        revoked.put(key, task);
      } finally {
        revokedLock.unlock();
      }
    }
  }

  Lookup lookup(String presented) {
    String key = digest(presented);
    Long task = live.get(key);
    if (task != null) {
      return new Live(task);
    }
    revokedLock.lock();
    try {
      Long gone = revoked.get(key);
      return gone == null ? new Unknown() : new Revoked(gone);
    } finally {
      revokedLock.unlock();
    }
  }

  /**
   * The tools {@code task}'s agent is offered: the agents' tools plus those of the extensions that own the
   * task ({@link dev.roundhouse.hub.turns.TurnRunner#agentTools}); the agents' tools alone if the task is gone.
   */
  java.util.Set<String> toolsOf(long task) {
    try {
      return hub.agentTools(task);
    } catch (dev.roundhouse.hub.core.RoundhouseException.NotFound e) {
      return AgentToolsApi.NAMES;
    }
  }

  /** How many task tokens are live; for tests. */
  int liveCount() {
    return live.size();
  }

  private static String loopback(String base) {
    String url = base.replaceAll("/+$", "");
    return url.replace("://0.0.0.0:", "://127.0.0.1:").replace("://[::]:", "://127.0.0.1:");
  }

  private static String digest(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  @Override
  public String toString() {
    return "AgentTokens[" + live.size() + " live]";
  }
}
