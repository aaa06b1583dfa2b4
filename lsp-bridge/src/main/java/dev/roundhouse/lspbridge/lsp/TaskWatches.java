package dev.roundhouse.lspbridge.lsp;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hubclient.EventFollower;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubErrorException;
import dev.roundhouse.hubclient.HubHttp;
import dev.roundhouse.hubclient.HubUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Locks;

/**
 * The client's live views of single tasks ({@code roundhouse/watchTask}): one {@link EventFollower} per
 * watched task on the hub's {@code /api/tasks/{id}/stream}, pushing every event of the task as
 * {@code roundhouse/taskEvent} (stored ones with their {@code seq}, in order, each once; transient
 * {@code turn.text_delta} with {@code seq} 0) and the stream's state as {@code roundhouse/taskConnection}.
 *
 * <p>Thread-safety: {@code lock} guards the map of followers; followers are started and closed outside it.
 * Each follower calls the client on its own thread.
 */
final class TaskWatches implements AutoCloseable {
  /** At most this many tasks are watched at once by one client. */
  static final int MAX_WATCHES = 64;

  private final Supplier<HubAddress> locator;
  private final Duration retryDelay;
  private final RoundhouseClient client;
  private final ReentrantLock lock = Locks.tracked("lsp-task-watches");

  @GuardedBy("lock")
  private final Map<Long, EventFollower> watches = new HashMap<>();

  TaskWatches(Supplier<HubAddress> locator, Duration retryDelay, RoundhouseClient client) {
    this.locator = locator;
    this.retryDelay = retryDelay;
    this.client = client;
  }

  /**
   * Starts watching {@code task} (replacing an earlier watch of it). The answer comes once the hub's stream
   * is open, before any of its events: {@code {watching: true, task, after}} where {@code after} is the
   * position the events follow (the given one, else the start of the task's current generation). It fails
   * with the hub's reason when the first attempt to open the stream fails (an unknown task: {@code no task N}).
   */
  CompletableFuture<JsonElement> watch(long task, Long after) {
    EventFollower old;
    lock.lock();
    try {
      old = watches.remove(task);
      if (old == null && watches.size() >= MAX_WATCHES) {
        throw Params.invalid("roundhouse/watchTask: already watching " + MAX_WATCHES + " tasks; unwatch one first (roundhouse/unwatchTask)");
      }
    } finally {
      lock.unlock();
    }
    if (old != null) {
      old.close();
    }
    CompletableFuture<JsonElement> answer = new CompletableFuture<>();
    Forwarder forwarder = new Forwarder(task, answer);
    EventFollower follower = new EventFollower(() -> HubHttp.editorFace(locator), (hub, position) -> hub.openTaskEvents(task, position), after, retryDelay, "roundhouse-lsp-task-" + task, forwarder);
    forwarder.self.complete(follower);
    EventFollower displaced;
    lock.lock();
    try {
      displaced = watches.put(task, follower);
    } finally {
      lock.unlock();
    }
    if (displaced != null) {
      displaced.close(); // a concurrent watch of the same task: the later one wins
    }
    return answer;
  }

  /** Stops watching {@code task}; whether it was watched. */
  boolean unwatch(long task) {
    EventFollower old;
    lock.lock();
    try {
      old = watches.remove(task);
    } finally {
      lock.unlock();
    }
    if (old != null) {
      old.close();
    }
    return old != null;
  }

  /** The tasks watched now. */
  List<Long> watched() {
    lock.lock();
    try {
      return List.copyOf(watches.keySet());
    } finally {
      lock.unlock();
    }
  }

  private void forget(long task, EventFollower follower) {
    lock.lock();
    try {
      watches.remove(task, follower);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    List<EventFollower> all;
    lock.lock();
    try {
      all = new ArrayList<>(watches.values());
      watches.clear();
    } finally {
      lock.unlock();
    }
    all.forEach(EventFollower::close);
  }

  /** Forwards one task's stream to the client; answers the watch request on the first connection. */
  private final class Forwarder implements EventFollower.Listener {
    private final long task;
    private final CompletableFuture<JsonElement> answer;
    final CompletableFuture<EventFollower> self = new CompletableFuture<>();

    Forwarder(long task, CompletableFuture<JsonElement> answer) {
      this.task = task;
      this.answer = answer;
    }

    @Override
    public void event(long seq, JsonNode event) {
      client.taskEvent(Gsons.of(event).getAsJsonObject());
    }

    @Override
    public void transientEvent(JsonNode event) {
      client.taskEvent(Gsons.of(event).getAsJsonObject());
    }

    @Override
    public void connected(boolean resumed, long lastSeq) {
      if (!answer.isDone()) {
        JsonObject result = new JsonObject();
        result.addProperty("watching", true);
        result.addProperty("task", task);
        result.addProperty("after", lastSeq);
        answer.complete(result); // the answer goes out before the first event (LSP4J writes it on this thread)
      }
      client.taskConnection(state("connected", lastSeq, null));
    }

    @Override
    public void lost(String reason, long lastSeq) {
      if (!answer.isDone()) {
        stop();
        answer.completeExceptionally(RoundhouseLanguageServer.responseError(new HubUnavailableException("roundhouse/watchTask: " + reason)));
        return;
      }
      client.taskConnection(state("lost", lastSeq, reason));
    }

    @Override
    public boolean retry(RoundhouseException failure) {
      boolean gone = failure instanceof HubErrorException error && error.status() == 404;
      if (!answer.isDone()) {
        stop();
        answer.completeExceptionally(RoundhouseLanguageServer.responseError(failure));
        return false;
      }
      if (gone) {
        stop();
        client.taskConnection(state("ended", 0, failure.getMessage()));
      }
      return !gone;
    }

    /** Ends this watch (once the follower is known: it may call back before its constructor returned). */
    private void stop() {
      self.thenAccept(mine -> {
        forget(task, mine);
        mine.close();
      });
    }

    private JsonObject state(String state, long lastSeq, String reason) {
      JsonObject object = new JsonObject();
      object.addProperty("task", task);
      object.addProperty("state", state);
      object.addProperty("last_seq", lastSeq);
      if (reason != null) {
        object.addProperty("reason", reason);
      }
      return object;
    }
  }
}
