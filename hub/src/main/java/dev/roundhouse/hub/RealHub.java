package dev.roundhouse.hub;

import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.board.BoardOperations;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.metrics.HubMetrics;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.process.Containment;
import dev.roundhouse.hub.schedules.Scheduler;
import dev.roundhouse.hub.schedules.Scheduling;
import dev.roundhouse.hub.schedules.AutoStarts;
import dev.roundhouse.hub.schedules.DeferredStarts;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.decisions.Decisions;
import dev.roundhouse.hub.retention.Retention;
import dev.roundhouse.hub.retention.RetentionOperations;
import dev.roundhouse.hub.turns.DriverRegistry;
import dev.roundhouse.hub.turns.Transcripts;
import dev.roundhouse.hub.turns.TurnOperations;
import dev.roundhouse.hub.turns.TurnRunner;
import dev.roundhouse.hub.spi.DecisionDesk;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.agenttools.AgentTools;
import dev.roundhouse.hub.ext.ExtensionResources;
import dev.roundhouse.hub.spi.AgentEndpoints;
import io.undertow.server.HttpHandler;
import java.util.Optional;
import java.util.Set;
import org.slf4j.LoggerFactory;

/** Wires the store, the event bus and the operations. Thread-safe. */
final class RealHub implements InProcessHub {
  private final HubConfig config;
  private final HomeLock lock;
  private final Store store;
  private final EventBus events;
  private final Board board;
  private final OperationRegistry operations;
  private final String token;
  private final DriverRegistry drivers;
  private final TurnRunner runner;
  private final Transcripts transcripts;
  private final DeferredStarts deferredStarts;
  private final AutoStarts autoStarts;
  private final List<HubExtension> extensions = new ArrayList<>();
  private final ExtensionResources resources;
  private volatile String url;
  private final ExtensionRoutes routes = new ExtensionRoutes();

  private final Containment containment;
  private final HubMetrics metrics;
  private final WorkerHeartbeat heartbeat;

  private RealHub(HubConfig config, HomeLock lock, Store store, EventBus events, String token, DriverRegistry drivers,
      Containment containment) {
    this.config = config;
    this.containment = containment;
    this.lock = lock;
    this.store = store;
    this.events = events;
    this.token = token;
    this.drivers = drivers;
    this.board = new Board(store);
    this.resources = ExtensionResources.create(events, config.clock());
    this.operations = OperationRegistry.create();
    BoardOperations.register(operations, board);
    Decisions decisions = new Decisions(store);
    if (store.sharedWithOtherWriters()) {
      decisions.follow(events); // answers given at another worker wake the turns parked here
    }
    String worker = WorkerHeartbeat.newId();
    this.transcripts = new Transcripts(store, drivers);
    this.runner = new TurnRunner(store, events, drivers, decisions, operations, config.runner(), config.clock(), containment,
        worker);
    TurnOperations.register(operations, runner, transcripts, decisions, drivers, store, config.clock());
    AgentTools.register(operations, board, runner);
    this.retention = new Retention(store, config.retention(), config.clock());
    RetentionOperations.register(operations, retention);
    this.deferredStarts = new DeferredStarts(store, events, runner, config.clock());
    this.autoStarts = new AutoStarts(store, events, runner, config.clock());
    this.decisions = decisions;
    this.scheduling = Scheduling.create(store, board, runner, drivers, config.clock(), config.scheduler(), operations);
    this.metrics = new HubMetrics(store, events);
    metrics.counter("roundhouse.turn.lease.renewals", "Turn leases this worker renewed",
        () -> runner.leaseCounts().renewals());
    metrics.counter("roundhouse.turn.lease.losses", "Turns this worker lost to another after its lease ran out",
        () -> runner.leaseCounts().losses());
    metrics.counter("roundhouse.turn.lease.takeovers", "Turns of dead workers this worker ended as interrupted",
        () -> runner.leaseCounts().takenOver());
    this.heartbeat = WorkerHeartbeat.start(store, config.clock(), worker); // last: nothing after it can fail
  }

  private final Decisions decisions;
  private final Scheduling scheduling;
  private final Retention retention;

  private void start(List<? extends HubExtension> list) {
    ExtensionContext context = new RealExtensionContext(config, operations, events, decisions, store, runner, board, resources, routes,
        containment);
    for (HubExtension extension : list) {
      Locks.assertNoneHeld("extension " + extension.name() + "'s start");
      extension.start(context);
      extensions.add(extension);
    }
  }

  static RealHub open(HubConfig config, List<? extends AgentDriver> driverList, List<? extends HubExtension> extensionList) {
    DriverRegistry drivers = new DriverRegistry(driverList);
    HomeLock lock = HomeLock.acquire(config.lockFile(), config.clock().instant());
    try {
      String token = LocalToken.loadOrCreate(config.tokenFile(), new SecureRandom());
      EventBus events = new EventBus();
      Store store = config.databaseUrl() == null
          ? Store.sqlite(config.database(), config.clock(), config.maxBatch(), events)
          : Store.postgres(config.databaseUrl(), config.clock(), config.maxBatch(), events);
      events.attach(store);
      RealHub hub = null;
      try {
        hub = new RealHub(config, lock, store, events, token, drivers, Containment.detect(config.home(), config.clock()));
        hub.runner.open();
        hub.scheduling.open();
        hub.retention.start();
      } catch (RuntimeException e) {
        if (hub != null) {
          hub.heartbeat.close();
        }
        events.close();
        store.close();
        throw e;
      }
      try {
        hub.start(extensionList);
        // After the extensions: a task that starts by itself (or whose dead worker's queue is taken over) is
        // placed and contributed to like any other.
        hub.runner.startLeases();
        hub.autoStarts.open();
        hub.deferredStarts.open();
      } catch (RuntimeException e) {
        hub.closeQuietly();
        throw e;
      }
      return hub;
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  private void closeQuietly() {
    try {
      heartbeat.close();
      scheduling.close();
      retention.close();
      deferredStarts.close();
      autoStarts.close();
      runner.close();
      events.close();
      store.close();
    } catch (RuntimeException e) {
      // already failing
    }
  }

  @Override
  public DecisionDesk decisions() {
    return decisions;
  }

  @Override
  public ExtensionResources resources() {
    return resources;
  }

  @Override
  public Set<String> agentTools(long task) {
    return runner.agentTools(task);
  }

  @Override
  public Optional<HttpHandler> extensionRoute(String name) {
    return routes.get(name);
  }

  @Override
  public boolean extensionRouteNeedsToken(String name) {
    return routes.needsToken(name);
  }

  @Override
  public long transcriptStart(long task) {
    return transcripts.generationStart(task);
  }

  @Override
  public void useAgentEndpoints(AgentEndpoints endpoints) {
    runner.useAgentEndpoints(endpoints);
  }

  @Override
  public HubConfig config() {
    return config;
  }

  @Override
  public OperationRegistry operations() {
    return operations;
  }

  @Override
  public EventBus events() {
    return events;
  }

  @Override
  public HubMetrics metrics() {
    return metrics;
  }

  @Override
  public Board board() {
    return board;
  }

  @Override
  public DriverRegistry drivers() {
    return drivers;
  }

  @Override
  public TurnRunner runner() {
    return runner;
  }

  @Override
  public Scheduler scheduler() {
    return scheduling.scheduler();
  }

  @Override
  public Transcripts transcripts() {
    return transcripts;
  }

  @Override
  public String token() {
    return token;
  }

  @Override
  public void publishUrl(String url) {
    lock.publishUrl(url);
    this.url = url;
    heartbeat.publishUrl(url);
  }

  @Override
  public Optional<String> publishedUrl() {
    return Optional.ofNullable(url);
  }

  @Override
  public DeferredStarts deferredStarts() {
    return deferredStarts;
  }

  @Override
  public Containment.Mechanisms processContainment() {
    return containment.mechanisms();
  }

  @Override
  public void close() {
    try {
      scheduling.close();
      retention.close();
      deferredStarts.close();
      autoStarts.close();
      runner.close();
      for (HubExtension extension : extensions.reversed()) {
        try {
          Locks.assertNoneHeld("extension " + extension.name() + "'s close");
          extension.close();
        } catch (RuntimeException e) {
          LoggerFactory.getLogger(RealHub.class).warn("extension {} failed to close", extension.name(), e);
        }
      }
      containment.close(); // after the extensions, whose services and terminals have cgroups in the hub's
      metrics.close();
      heartbeat.close();
      events.close();
      store.close();
    } finally {
      lock.close();
    }
  }
}
