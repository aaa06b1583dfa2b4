package dev.roundhouse.hub.ext;

import dev.roundhouse.hub.Actor;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.ops.OperationRegistry;

/** What an extension gets from the hub. Thread-safe. */
public interface ExtensionContext {
  HubConfig config();

  /** Register operations here; every face offers them like the hub's own. */
  OperationRegistry operations();

  EventBus events();

  /** Open decisions of the extension's own kinds, and act when they are answered. */
  DecisionDesk decisions();

  /**
   * Adds {@code contributor}'s context and agent tools to the turns of the tasks it owns (see
   * {@link TurnContributor}). Contributors are asked in registration order; the texts of every owner are
   * added in that order.
   */
  void contributeToTurns(TurnContributor contributor);

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
