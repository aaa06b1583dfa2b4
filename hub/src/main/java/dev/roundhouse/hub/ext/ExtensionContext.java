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
}
