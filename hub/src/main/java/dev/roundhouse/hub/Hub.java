package dev.roundhouse.hub;

import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.model.Worker;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.metrics.HubMetrics;
import dev.roundhouse.hub.ext.ExtensionResources;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.process.Containment;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AgentEndpoints;
import dev.roundhouse.hub.spi.DecisionDesk;
import dev.roundhouse.hub.spi.HubExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.ExtensionContext;
import io.undertow.server.HttpHandler;

/**
 * The running hub: its operations, its event stream and its configuration. Faces (HTTP, MCP, LSP, ACP,
 * CLI) hold no state of their own and reach everything through this interface; the engines behind it are
 * the hub's own ({@link InProcessHub} hands them to the wiring and to tests).
 *
 * <p>Thread-safe.
 */
public interface Hub extends AutoCloseable {

  HubConfig config();

  /** Every operation, by name; the one write and query surface. */
  OperationRegistry operations();

  /** The ordered, durable event stream. */
  EventBus events();

  /** Decisions: open, read, and act on answers (for extensions and in-process callers). */
  DecisionDesk decisions();

  /**
   * The operations {@code task}'s agent may call as tools: the agents' tools plus those of the extensions that own
   * the task (what its MCP session lists).
   *
   * @throws RoundhouseException.NotFound when there is no such task
   */
  Set<String> agentTools(long task);

  /**
   * Where {@code task}'s current transcript starts on the event stream: a face that streams a task's transcript
   * replays from this sequence (after {@code task_clear}, the new generation's first event).
   */
  long transcriptStart(long task);

  /** The handler an extension serves at {@code /api/x/{name}} (see {@link ExtensionContext#serve}). */
  Optional<HttpHandler> extensionRoute(String name);

  /**
   * False when the extension route {@code name} checks a credential of its own (see
   * {@link ExtensionContext#serveLinks}): the server then checks only the origin and the host.
   */
  boolean extensionRouteNeedsToken(String name);

  /** Registers the face that serves turns' agents their task-scoped MCP endpoint (the MCP face does). */
  void useAgentEndpoints(AgentEndpoints endpoints);

  /** The resources extensions offer, for the faces that serve resources. */
  ExtensionResources resources();

  /** The operator's numbers ({@code GET /metrics}); faces add their session gauges to it. */
  HubMetrics metrics();

  /** The local API token. */
  String token();

  /** Records where the hub's HTTP server listens, for clients to find it. */
  void publishUrl(String url);

  /**
   * The base URL the hub's HTTP server published (such as {@code http://127.0.0.1:7420}); empty until the
   * server is listening.
   */
  Optional<String> publishedUrl();

  /** How the processes of turns are contained here (cgroup v2, parent-death signal, run marker and group). */
  Containment.Mechanisms processContainment();

  @Override
  void close();

  /**
   * Connects to the PostgreSQL database at {@code url} without changing it and describes it: the server's
   * version and the schema version ({@code doctor}); {@code store_unavailable}, naming why, when it cannot.
   */
  static String describeDatabase(DatabaseUrl url) {
    return Store.describe(url);
  }

  /**
   * Moves a home's store to PostgreSQL: copies the SQLite database of {@code config}'s home into the empty
   * PostgreSQL database at {@code target}, holding the home's lock meanwhile (so no hub runs on it), every
   * row kept with its id and sequence number. Returns the rows copied per table.
   */
  static Map<String, Long> copyStoreToPostgres(HubConfig config, DatabaseUrl target) {
    try (HomeLock lock = HomeLock.acquire(config.lockFile(), config.clock().instant())) {
      return Store.copySqliteToPostgres(config.database(), target);
    }
  }

  /** The hub processes registered on the PostgreSQL database at {@code url} ({@code doctor}). */
  static List<Worker> databaseWorkers(DatabaseUrl url) {
    return Store.workers(url);
  }

  /**
   * Opens the hub in {@code config.home()}: takes the home lock (failing at once if another hub holds it),
   * opens and migrates the database, and registers the operations.
   */
  static InProcessHub open(HubConfig config) {
    return RealHub.open(config, List.of(), List.of());
  }

  /** As {@link #open(HubConfig)}, with the agent drivers turns can use. */
  static InProcessHub open(HubConfig config, List<? extends AgentDriver> drivers) {
    return RealHub.open(config, drivers, List.of());
  }

  /** As {@link #open(HubConfig, List)}, with extensions that add operations and decision kinds. */
  static InProcessHub open(HubConfig config, List<? extends AgentDriver> drivers, List<? extends HubExtension> extensions) {
    return RealHub.open(config, drivers, extensions);
  }

  /** This build's version, such as {@code 0.1.0-SNAPSHOT}. */
  static String version() {
    try (InputStream in = Hub.class.getResourceAsStream("version.txt")) {
      return in == null ? "dev" : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "dev";
    }
  }
}
