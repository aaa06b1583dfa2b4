package dev.roundhouse.lspbridge.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hubclient.EventFollower;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubHttp;
import dev.roundhouse.hubclient.RemoteHub;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import dev.roundhouse.hub.core.Locks;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Offers every pending decision of the connection's sessions to the client as {@code
 * session/request_permission}, each once: those a running prompt meets, and those that open while no
 * prompt runs (a turn started from the board, a lingering turn). A follower of the hub's event stream,
 * started with the first session, sees the latter; on every (re)connect the pending decisions of the
 * known sessions are offered too. The answer goes to {@code decision_answer}.
 *
 * <p>A decision of no task (an MCP client's sign-in consent, {@code mcp_consent}) belongs to no session: it is
 * offered once per connection, in the session opened first, so a person using only an ACP editor still sees it.
 *
 * <p>Thread-safe: the session table and the offered set are concurrent; the follower calls in on its own
 * thread, prompts on theirs; no lock is held while calling the hub or the client.
 */
final class AcpDecisionOffers implements EventFollower.Listener, AutoCloseable {
  private final RemoteHub hub;
  private final AcpConnection client;
  private final Executor executor;
  private final Supplier<HubAddress> locator;
  private final Duration retryDelay;
  private final Map<Long, String> sessions = new ConcurrentHashMap<>();
  /** The session opened first, where decisions of no task are offered; null until one is. */
  private volatile String firstSession;
  private final Set<Long> offered = ConcurrentHashMap.newKeySet();
  /** Serialises starting the follower against closing; {@code follower} and {@code closed} stay volatile for the reads outside it. */
  private final ReentrantLock lock = Locks.tracked("acp-decision-offers");
  private volatile EventFollower follower;
  private volatile boolean closed;

  AcpDecisionOffers(RemoteHub hub, AcpConnection client, Executor executor, Supplier<HubAddress> locator, Duration retryDelay) {
    this.hub = hub;
    this.client = client;
    this.executor = executor;
    this.locator = locator;
    this.retryDelay = retryDelay;
  }

  /** The client opened or loaded a session on {@code task}: its decisions are offered from now on. */
  void watch(long task, String sessionId) {
    sessions.put(task, sessionId);
    boolean first = firstSession == null;
    if (first) {
      firstSession = sessionId;
    }
    if (follower == null) {
      lock.lock();
      try {
        if (follower == null && !closed) {
          follower = new EventFollower(() -> HubHttp.editorFace(locator), null, retryDelay, "roundhouse-acp-decisions", this);
        }
      } finally {
        lock.unlock();
      }
    }
    offerPending(task);
    if (first) {
      offerPendingOfNoTask();
    }
  }

  /** Offers the pending decisions that belong to no task (sign-in consents). */
  private void offerPendingOfNoTask() {
    for (JsonNode decision : hub.call("decision_list", new TurnApi.DecisionQuery(null, null, null, null)).path("decisions")) {
      if (!decision.hasNonNull("task_id") && decision.path("status").asText("pending").equals("pending")) {
        offer(decision);
      }
    }
  }

  /** Offers the task's pending decisions (a prompt calls this once its message is sent). */
  void offerPending(long task) {
    for (JsonNode decision : hub.call("decision_list", new TurnApi.DecisionQuery(null, task, null, null)).path("decisions")) {
      if (decision.path("status").asText("pending").equals("pending")) {
        offer(decision);
      }
    }
  }

  @Override
  public void connected(boolean resumed, long lastSeq) {
    try {
      for (long task : sessions.keySet()) {
        offerPending(task);
      }
      if (firstSession != null) {
        offerPendingOfNoTask();
      }
    } catch (RoundhouseException e) {
      // the hub went away again: the next connect offers them
    }
  }

  @Override
  public void event(long seq, JsonNode event) {
    if (event.path("type").asText().equals("decision.opened")) {
      offer(event.path("data").path("decision"));
    }
  }

  /** Offers one decision if it belongs to a session of this connection and was not offered before. */
  void offer(JsonNode decision) {
    if (closed || !decision.path("id").canConvertToLong()) {
      return;
    }
    String sessionId = decision.hasNonNull("task_id") ? sessions.get(decision.get("task_id").asLong()) : firstSession;
    long id = decision.get("id").asLong();
    if (sessionId == null || !offered.add(id)) {
      return;
    }
    Optional<ObjectNode> params = AcpUpdates.permissionRequest(sessionId, decision);
    if (params.isEmpty()) {
      note(sessionId, "the agent asks \"" + decision.path("title").asText() + "\" and needs a free-text answer; answer decision "
          + id + " on the board or with roundhouse ops decision_answer");
      return;
    }
    client
        .request("session/request_permission", params.get())
        .whenCompleteAsync(
            (result, failure) -> {
              if (failure != null) {
                return; // the client could not answer: the hub denies it when it times out or the turn stops
              }
              JsonNode outcome = result.path("outcome");
              if (!outcome.path("outcome").asText().equals("selected")) {
                return; // cancelled: the prompt was cancelled, turn_stop expires the decision (denied)
              }
              try {
                hub.decisionAnswer(new TurnApi.DecisionAnswer(id, outcome.path("optionId").asText(), null, null));
              } catch (RoundhouseException e) {
                note(sessionId, "could not answer decision " + id + ": " + e.getMessage());
              }
            },
            executor);
  }

  private void note(String sessionId, String text) {
    client.notify("session/update", new AcpSchema.SessionNotification(sessionId, AcpUpdates.chunk(AcpUpdates.AGENT_MESSAGE, "\n[Roundhouse: " + text + "]\n")));
  }

  @Override
  public void close() {
    EventFollower current;
    lock.lock();
    try {
      closed = true;
      current = follower;
    } finally {
      lock.unlock();
    }
    if (current != null) {
      current.close();
    }
  }
}
