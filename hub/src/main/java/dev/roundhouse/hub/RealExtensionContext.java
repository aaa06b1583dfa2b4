package dev.roundhouse.hub;

import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.decisions.Decisions;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.ext.ExtensionResources;
import dev.roundhouse.hub.ext.StoredExtensionRecords;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.spi.DecisionDesk;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.ExtensionRecords;
import dev.roundhouse.hub.spi.ExtensionResource;
import dev.roundhouse.hub.spi.TaskProcessStopper;
import dev.roundhouse.hub.spi.TaskStatusGuard;
import dev.roundhouse.hub.spi.TurnContributor;
import dev.roundhouse.hub.spi.TurnPlace;
import dev.roundhouse.hub.spi.TurnPlacer;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.turns.TurnRunner;
import io.undertow.server.HttpHandler;
import dev.roundhouse.hub.process.ProcessScopes;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/** What the hub hands each extension: its engines behind the SPI's one interface. Thread-safe: it delegates. */
final class RealExtensionContext implements ExtensionContext {
  private final HubConfig config;
  private final OperationRegistry operations;
  private final EventBus events;
  private final Decisions decisions;
  private final Store store;
  private final TurnRunner runner;
  private final Board board;
  private final ExtensionResources resources;
  private final ExtensionRoutes routes;
  private final ProcessScopes processes;
  private final List<TaskProcessStopper> stoppers = new CopyOnWriteArrayList<>();

  RealExtensionContext(HubConfig config, OperationRegistry operations, EventBus events, Decisions decisions, Store store,
      TurnRunner runner, Board board, ExtensionResources resources, ExtensionRoutes routes, ProcessScopes processes) {
    this.config = config;
    this.operations = operations;
    this.events = events;
    this.decisions = decisions;
    this.store = store;
    this.runner = runner;
    this.board = board;
    this.resources = resources;
    this.routes = routes;
    this.processes = processes;
  }

  @Override
  public ProcessScopes processes() {
    return processes;
  }

  @Override
  public Path home() {
    return config.home();
  }

  @Override
  public Clock clock() {
    return config.clock();
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
  public DecisionDesk decisions() {
    return decisions;
  }

  @Override
  public void contributeToTurns(TurnContributor contributor) {
    runner.contributeToTurns(contributor);
  }

  @Override
  public ExtensionRecords records(String namespace) {
    return new StoredExtensionRecords(store, namespace);
  }

  @Override
  public Event append(EventDraft event) {
    return store.append(event);
  }

  @Override
  public void serve(String name, HttpHandler handler) {
    routes.add(name, handler);
  }

  @Override
  public void serveLinks(String name, HttpHandler handler) {
    routes.addLinks(name, handler);
  }

  @Override
  public void guardStatusChanges(TaskStatusGuard guard) {
    board.guardStatusChanges(guard);
  }

  @Override
  public void stopTaskProcessesWith(TaskProcessStopper stopper) {
    stoppers.add(Objects.requireNonNull(stopper, "stopper"));
  }

  @Override
  public List<String> stopTaskProcesses(Actor actor, long task, Path folder) {
    Locks.assertNoneHeld("task process stoppers");
    List<String> stopped = new ArrayList<>();
    for (TaskProcessStopper stopper : stoppers) {
      stopped.addAll(stopper.stop(actor, task, folder));
    }
    return List.copyOf(stopped);
  }

  @Override
  public void placeTurns(TurnPlacer placer) {
    runner.placeTurns(placer);
  }

  @Override
  public TurnPlace placeOf(long task) {
    return runner.placeOf(task);
  }

  @Override
  public void offerResource(ExtensionResource resource) {
    resources.add(resource);
  }

  @Override
  public void resourcesChanged(Actor actor, String... uris) {
    resources.changed(actor, List.of(uris));
  }
}
