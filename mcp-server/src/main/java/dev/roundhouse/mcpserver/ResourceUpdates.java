package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventStream;
import dev.roundhouse.hub.ext.ExtensionResources;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the hub's event stream on one virtual thread and tells the MCP server which resources an event
 * touched; the SDK sends {@code notifications/resources/updated} to the sessions subscribed to each URI.
 * {@code task.*} touches the task and its project's board (by id and by name), and the board of the
 * project it left when it changed projects (a {@code project_id} change in a {@code task.updated}: a move,
 * or the revert of one); {@code project.*} the
 * project's board and the project list, {@code turn.*} the task's transcript, {@code decision.*} the
 * pending decisions and the task's transcript; {@code resource.updated} ({@link ExtensionResources#UPDATED},
 * an extension's word that its resources changed) the URIs it names. The other transient events (text deltas)
 * touch nothing: the durable event that sums them up does. Events that arrive together are coalesced, so each
 * URI is notified once per burst. A stream that falls behind is reopened after the last event seen (an
 * extension's transient report that was dropped with it is lost).
 *
 * <p>Thread-safe: {@link #close()} may be called from any thread; it stops the follower and waits for it.
 */
final class ResourceUpdates implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ResourceUpdates.class);
  private static final Duration POLL = Duration.ofMillis(500);
  private static final int BUFFER = 4096;
  private static final int BURST = 256;

  private final Hub hub;
  private final Consumer<String> notify;
  private final Thread follower;
  private volatile boolean closed;
  private volatile EventStream stream;

  private ResourceUpdates(Hub hub, Consumer<String> notify) {
    this.hub = hub;
    this.notify = notify;
    long after = hub.events().lastSeqOrZero();
    this.stream = hub.events().open(after, BUFFER);
    this.follower = Thread.ofVirtual().name("mcp-resource-updates").unstarted(this::follow);
  }

  /** Starts following the events committed from now on, notifying {@code server}. */
  static ResourceUpdates start(Hub hub, McpSyncServer server) {
    return start(hub, uri -> server.notifyResourcesUpdated(new McpSchema.ResourcesUpdatedNotification(uri)));
  }

  static ResourceUpdates start(Hub hub, Consumer<String> notify) {
    ResourceUpdates updates = new ResourceUpdates(hub, notify);
    updates.follower.start();
    return updates;
  }

  private void follow() {
    while (!closed) {
      try {
        Optional<Event> first = stream.next(POLL);
        if (first.isEmpty()) {
          continue;
        }
        Set<String> touched = new LinkedHashSet<>();
        touched(first.get(), touched);
        for (int i = 1; i < BURST; i++) {
          Optional<Event> more = stream.next(Duration.ZERO);
          if (more.isEmpty()) {
            break;
          }
          touched(more.get(), touched);
        }
        for (String uri : touched) {
          send(uri);
        }
      } catch (EventStream.EventStreamClosed e) {
        if (closed) {
          return;
        }
        long after = stream.position();
        log.info("MCP resource updates fell behind ({}); resuming after event {}", e.getMessage(), after);
        stream = hub.events().open(after, BUFFER);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        log.warn("MCP resource updates: an event could not be mapped to resources", e);
      }
    }
  }

  private void send(String uri) {
    try {
      notify.accept(uri);
    } catch (RuntimeException e) {
      log.debug("notifying {} failed: {}", uri, e.toString());
    }
  }

  /** Adds the URIs {@code event} touches to {@code touched}. */
  void touched(Event event, Set<String> touched) {
    if (event.type().equals(ExtensionResources.UPDATED)) {
      event.data().path("uris").forEach(uri -> touched.add(uri.asText()));
      return;
    }
    if (event.seq() == 0) {
      return;
    }
    String family = event.type().substring(0, Math.max(0, event.type().indexOf('.')));
    switch (family) {
      case "task" -> {
        if (event.taskId() != null) {
          touched.add(HubResources.task(event.taskId()));
          touched.add(HubResources.transcript(event.taskId()));
        }
        boards(event.projectId(), touched);
        boards(projectLeft(event), touched);
      }
      case "project" -> {
        touched.add(HubResources.PROJECTS);
        boards(event.projectId(), touched);
      }
      case "turn" -> {
        if (event.taskId() != null) {
          touched.add(HubResources.transcript(event.taskId()));
        }
      }
      case "schedule" -> {
        touched.add(HubResources.SCHEDULES);
        long schedule = event.data() == null ? 0 : event.data().path("schedule").path("id").asLong(event.data().path("run").path("schedule_id").asLong());
        if (schedule > 0) {
          touched.add(HubResources.schedule(schedule));
        }
      }
      case "runbook" -> {
        touched.add(HubResources.RUNBOOKS);
        touched.add(HubResources.SCHEDULES); // a schedule shows its runbook's name
      }
      case "decision" -> {
        touched.add(HubResources.DECISIONS);
        if (event.taskId() != null) {
          touched.add(HubResources.transcript(event.taskId()));
        }
      }
      default -> {}
    }
  }

  /** The project a task moved away from, when {@code event} records such a change (a move, or a reverted one). */
  private static Long projectLeft(Event event) {
    if (event.data() == null) {
      return null;
    }
    for (var change : event.data().path("changes")) {
      if (change.path("field").asText().equals("project_id") && change.path("before").canConvertToLong()) {
        return change.path("before").asLong();
      }
    }
    return null;
  }

  private void boards(Long projectId, Set<String> touched) {
    if (projectId == null) {
      return;
    }
    touched.add(HubResources.board(projectId.toString()));
    try {
      JsonNode project = hub.operations().invoke("project_get", Actor.USER, Json.mapper().createObjectNode().put("project", projectId.toString()));
      touched.add(HubResources.board(project.path("name").asText()));
    } catch (RoundhouseException e) {
      // the project is gone; its id form is enough
    }
  }

  @Override
  public void close() {
    closed = true;
    stream.close();
    follower.interrupt();
    try {
      follower.join(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
