package dev.roundhouse.mcpserver;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The MCP sessions the SDK started ({@link TrackedSessions} records each), and whether {@link DirectToolCalls}
 * may answer a request of one of them without the SDK.
 *
 * <p>The SDK evicts a session that made no request to it between two of its sweeps (one every
 * {@code sessionIdle}), and nothing public lets our code tell it that a session is in use. So a session's calls
 * are answered directly only while its last request that the SDK answered is less than a quarter of
 * {@code sessionIdle} old; the next one goes through the SDK, which marks the session active again. A
 * session in use therefore always has an SDK request in every sweep interval, and one idle for three quarters
 * of {@code sessionIdle} may be evicted (the SDK alone: between one and two). A session is answered directly
 * only once the SDK has answered one of its requests (a 2xx), and is forgotten when the SDK answers one with
 * 404 (it was evicted), when the client deletes it, or once the SDK has dropped it (entries hold sessions
 * weakly, and each new session prunes those gone).
 *
 * <p>Thread-safe: a concurrent map of entries whose times are volatile.
 */
final class KnownSessions {
  private final ConcurrentHashMap<String, Known> sessions = new ConcurrentHashMap<>();
  private final long refreshNanos;
  private final LongSupplier nanoTime;

  /**
   * A session the SDK started, the client that started it, and when the SDK last answered for it. The session
   * is held weakly: once the SDK drops a session (swept, deleted), nothing here keeps it alive, and its entry is
   * pruned.
   */
  private static final class Known {
    private final WeakReference<McpStreamableServerSession> session;
    private final McpSchema.Implementation client;
    private volatile boolean confirmed;
    private volatile long sdkAnswered;

    private Known(McpStreamableServerSession session, McpSchema.Implementation client) {
      this.session = new WeakReference<>(session);
      this.client = client;
    }
  }

  /**
   * A session whose request may be answered without the SDK.
   *
   * @param session the SDK's session (its client's logging level)
   * @param client the client's own name and version from its {@code initialize}; may be null
   */
  record Live(McpStreamableServerSession session, McpSchema.Implementation client) {}

  /**
   * @param sessionIdle the SDK's sweep interval
   * @param nanoTime the clock ({@link System#nanoTime} in the product)
   */
  KnownSessions(Duration sessionIdle, LongSupplier nanoTime) {
    this.refreshNanos = sessionIdle.toNanos() / 4;
    this.nanoTime = nanoTime;
  }

  /** Records a session the SDK started, and prunes the entries of sessions the SDK has dropped since. */
  void started(McpStreamableServerSession session, McpSchema.Implementation client) {
    sessions.values().removeIf(known -> known.session.refersTo(null));
    sessions.put(session.getId(), new Known(session, client));
  }

  /** The session {@code id}, if a request of it may be answered without the SDK now; otherwise null. */
  Live direct(String id) {
    Known known = sessions.get(id);
    if (known == null || !known.confirmed || nanoTime.getAsLong() - known.sdkAnswered >= refreshNanos) {
      return null;
    }
    McpStreamableServerSession session = known.session.get();
    if (session == null) {
      sessions.remove(id, known);
      return null;
    }
    return new Live(session, known.client);
  }

  /** Records that the SDK answered a request naming session {@code id} with {@code status}. */
  void sdkAnswered(String id, int status) {
    if (status == 404) {
      sessions.remove(id);
      return;
    }
    Known known = sessions.get(id);
    if (known != null && status >= 200 && status < 300) {
      known.sdkAnswered = nanoTime.getAsLong();
      known.confirmed = true;
    }
  }

  void forget(String id) {
    sessions.remove(id);
  }

  int size() {
    return sessions.size();
  }
}
