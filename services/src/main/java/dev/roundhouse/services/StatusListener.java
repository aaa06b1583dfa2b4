package dev.roundhouse.services;

/**
 * Told about every status change of every service, in order, on the supervisor's single event thread and
 * never under a lock. A slow listener delays later notifications but never a service.
 */
@FunctionalInterface
public interface StatusListener {
  void changed(ServiceState state);
}
