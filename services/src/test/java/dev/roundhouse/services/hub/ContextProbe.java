package dev.roundhouse.services.hub;

import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;

/**
 * An extension that only keeps the context the hub hands it, so a test can ask the hub what a module that uses the
 * seam would ask (such as {@code stopTaskProcesses}, which the workspace module calls before a reclaim).
 * Thread-safe: a volatile field.
 */
final class ContextProbe implements HubExtension {
  private volatile ExtensionContext context;

  @Override
  public String name() {
    return "probe";
  }

  @Override
  public void start(ExtensionContext given) {
    this.context = given;
  }

  ExtensionContext context() {
    return context;
  }
}
