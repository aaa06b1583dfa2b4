package dev.roundhouse.services;

/**
 * Told about every line a service prints, on that service's output reader thread and never under a lock.
 * It must not block: a listener that waits slows the service down (its pipe fills). Viewers that may lag
 * read with {@link ServiceSupervisor#follow} instead, which skips with a marker.
 */
@FunctionalInterface
public interface LogListener {
  void line(String service, LogLine line);
}
