package dev.roundhouse.services;

/** A listener registration; closing it removes the listener. Idempotent. */
@FunctionalInterface
public interface Subscription extends AutoCloseable {
  @Override
  void close();
}
