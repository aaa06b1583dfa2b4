package dev.roundhouse.hub.spi;

import dev.roundhouse.hub.core.Actor;
import java.nio.file.Path;
import java.util.List;
import java.time.Clock;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.process.ProcessScope;
import dev.roundhouse.hub.process.ProcessScopes;
import io.undertow.server.HttpHandler;

/** What an extension gets from the hub. Thread-safe. */
public interface ExtensionContext {
  /** The hub's home folder ({@code ROUNDHOUSE_HOME}): where an extension keeps files of its own. */
  Path home();

  /** The hub's clock: every time an extension reads or records comes from it, so tests drive it. */
  Clock clock();

  /** Register operations here; every face offers them like the hub's own. */
  OperationRegistry operations();

  EventBus events();

  /**
   * The module's durable records under {@code namespace} (by convention its name), kept in the hub's store.
   *
   * @throws IllegalArgumentException naming a namespace that is not 1-64 of a-z, 0-9, '_', '.', '-'
   */
  ExtensionRecords records(String namespace);

  /**
   * Appends an event to the hub's durable stream (a worktree was made, a pull request merged) and returns it
   * once it is durable; it is published after it commits. Call with no lock held.
   */
  Event append(EventDraft event);

  /** Open decisions of the extension's own kinds, and act when they are answered. */
  DecisionDesk decisions();

  /**
   * Adds {@code contributor}'s context and agent tools to the turns of the tasks it owns (see
   * {@link TurnContributor}). Contributors are asked in registration order; the texts of every owner are
   * added in that order.
   */
  void contributeToTurns(TurnContributor contributor);

  /**
   * Adds {@code placer}'s say in where the turns of every task run and what their processes' environment holds
   * (see {@link TurnPlacer}). Placers are asked in registration order before every turn.
   */
  void placeTurns(TurnPlacer placer);

  /**
   * Where {@code task}'s agent works, as every registered placer decides: for a module that starts processes
   * for a task (a terminal, a dev service in the task's worktree). May block (a placer may create a worktree).
   *
   * @throws RoundhouseException.NotFound when there is no such task
   */
  TurnPlace placeOf(long task);

  /**
   * Serves {@code handler} at {@code /api/x/{name}} and below on the hub's HTTP server, behind the hub's own
   * checks (the token, browser origins, the Host header), on a virtual thread per request where it may block:
   * for what an operation cannot carry (a log that streams, a terminal's WebSocket, a proxied dev server). The
   * handler answers its own errors.
   *
   * @throws IllegalArgumentException when {@code name} is not 1-32 of a-z, 0-9, '-' or is served already
   */
  void serve(String name, HttpHandler handler);

  /**
   * As {@link #serve}, but without the hub's token: the hub still refuses a present and foreign {@code Origin}, a
   * {@code Host} that is not this machine and repeated headers, then hands the request to {@code handler}, which
   * must refuse every request that does not carry a credential of its own (a capability link: an unguessable,
   * revocable token in the path). For what a person opens in a browser that has no hub token, such as a dev
   * server the user chose to share.
   *
   * @throws IllegalArgumentException when {@code name} is not 1-32 of a-z, 0-9, '-' or is served already
   */
  void serveLinks(String name, HttpHandler handler);

  /**
   * Adds {@code stopper} to the modules asked to end a task's processes (see {@link TaskProcessStopper}) before
   * something the task's processes may use goes away.
   */
  void stopTaskProcessesWith(TaskProcessStopper stopper);

  /**
   * Asks every registered {@link TaskProcessStopper}, in registration order, to end the processes it runs for
   * {@code task} or in {@code folder} (the task's worktree): for a module about to remove that folder. Returns what
   * they ended, once it is gone. Call with no lock held; may block.
   *
   * @throws RoundhouseException from the first stopper that could not end something (the ones after it are not
   *     asked): keep the folder
   */
  List<String> stopTaskProcesses(Actor actor, long task, Path folder);

  /**
   * Where the module starts its long-lived processes (dev services, terminals): each {@link ProcessScope} gets what a
   * turn's children get (a cgroup v2 of its own where the hub may make one, a parent-death signal, the run and hub
   * markers) and is reaped with them by the next boot after a crash of the hub (see docs/processes.md). The module
   * journals the scope's groups where it likes and closes the scope when they should end.
   */
  ProcessScopes processes();

  /** Adds {@code guard}'s veto on moving tasks between columns (see {@link TaskStatusGuard}). */
  void guardStatusChanges(TaskStatusGuard guard);

  /**
   * Offers {@code resource} to the faces that serve resources (the MCP endpoint), beside the hub's own;
   * its URI must not be offered already.
   */
  void offerResource(ExtensionResource resource);

  /**
   * Says that the state behind {@code uris} changed, so the faces that serve resources tell their
   * subscribers (MCP {@code notifications/resources/updated}): call it after the change, from any thread, with
   * no lock held. Each URI is one the extension offers, and concrete: {@code roundhouse://calendars/work} for the
   * template {@code roundhouse://calendars/{calendar}}. Published on the hub's event stream as a transient
   * {@value ExtensionResources#UPDATED} event by {@code actor} (who made the change); never blocks.
   *
   * @throws IllegalArgumentException naming a URI that is not offered or is a template
   */
  void resourcesChanged(Actor actor, String... uris);
}
