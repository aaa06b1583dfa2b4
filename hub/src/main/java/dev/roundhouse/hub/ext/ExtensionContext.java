package dev.roundhouse.hub.ext;

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
}
