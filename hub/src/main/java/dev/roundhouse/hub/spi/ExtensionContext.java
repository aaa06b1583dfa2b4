package dev.roundhouse.hub.spi;

import dev.roundhouse.hub.core.Actor;
import java.nio.file.Path;
import java.time.Clock;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
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
