package dev.roundhouse.hub.spi;

import dev.roundhouse.hub.core.RoundhouseException;

/** Thrown into a driver that keeps working after its turn was stopped, so it unwinds. */
public final class TurnStoppedException extends RoundhouseException {
  private static final long serialVersionUID = 1L;

  public TurnStoppedException(long turnId) {
    super("turn_stopped", "turn " + turnId + " was stopped");
  }
}
