package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.store.StoreWriter;

/**
 * The last word on a start the hub makes by itself (a deferred start, a dependent whose blockers ended), said
 * inside the very store write that begins the turn: {@link TurnRunner#startIfAdmitted} runs it first, and a
 * gate that consumes its trigger there (clears {@code start_at}) makes the start happen at most once, however
 * many threads or restarts try it.
 */
@FunctionalInterface
public interface StartGate {

  /**
   * Whether the turn begins. Runs on the store's writer thread, inside the start's write: it may read and
   * write through {@code w} (its writes commit whether or not it admits the start), and must not block or
   * call out. What it throws undoes its writes and fails the start.
   */
  boolean admit(StoreWriter w);
}
