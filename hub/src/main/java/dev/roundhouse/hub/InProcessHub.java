package dev.roundhouse.hub;

import dev.roundhouse.hub.schedules.Scheduler;
import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.turns.DriverRegistry;
import dev.roundhouse.hub.turns.Transcripts;
import dev.roundhouse.hub.turns.TurnRunner;
import dev.roundhouse.hub.schedules.DeferredStarts;

/**
 * The hub with its engines in reach: for the process that opened it (the {@code app} wiring, benchmarks) and
 * for tests that drive an engine directly. Faces and capability modules use {@link Hub} and the SPI only;
 * {@code ModuleBoundariesTest} fails the build when another module names this type.
 *
 * <p>Thread-safe.
 */
public interface InProcessHub extends Hub {

  /** The board's rules. */
  Board board();

  /** The agent drivers this hub runs turns with. */
  DriverRegistry drivers();

  /** The turn runner. */
  TurnRunner runner();

  /** Transcripts by generation. */
  Transcripts transcripts();

  /** The scheduler (tests and benchmarks tick it with their own clock). */
  Scheduler scheduler();
  /** The deferred-start sweeper ({@code start_at}); tests sweep it with a time of their choosing. */
  DeferredStarts deferredStarts();
}
