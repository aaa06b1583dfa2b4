package dev.roundhouse.hub.spi;


/**
 * A module that adds operations and decision kinds to the hub without the hub depending on it: the
 * calendar agent is the first. Started once the hub's own operations are registered, closed before the
 * store. Implementations must be thread-safe.
 */
public interface HubExtension extends AutoCloseable {

  /** A short name for logs and errors, such as {@code calendar}. */
  String name();

  /** Registers the extension's operations and decision handlers. */
  void start(ExtensionContext context);

  @Override
  default void close() {}
}
