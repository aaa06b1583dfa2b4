package dev.roundhouse.drivers.testing;

import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.TurnRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A driver's turn on a virtual thread of its own, for tests that act on the turn while it runs (stop it,
 * answer it) and then look at how it ended: {@link #outcome} is what {@code run} threw, or null.
 *
 * <p>Thread-safe: the turn's thread completes the outcome once; the test thread waits on it.
 */
public final class BackgroundTurn {
  private final CompletableFuture<Throwable> outcome = new CompletableFuture<>();

  private BackgroundTurn() {}

  /** Starts {@code driver.run(request, context)}. */
  public static BackgroundTurn start(AgentDriver driver, TurnRequest request, RecordingTurnContext context) {
    BackgroundTurn turn = new BackgroundTurn();
    turn.thread(driver, request, context).start();
    return turn;
  }

  /**
   * Starts {@code driver.run(request, context)} on a thread named to the context ({@link
   * RecordingTurnContext#driverThread}), so that {@link RecordingTurnContext#stop} also interrupts it.
   */
  public static BackgroundTurn startInterruptible(AgentDriver driver, TurnRequest request, RecordingTurnContext context) {
    BackgroundTurn turn = new BackgroundTurn();
    Thread thread = turn.thread(driver, request, context);
    context.driverThread(thread);
    thread.start();
    return turn;
  }

  private Thread thread(AgentDriver driver, TurnRequest request, RecordingTurnContext context) {
    return Thread.ofVirtual().name(driver.id() + "-turn-test").unstarted(() -> {
      try {
        driver.run(request, context);
        outcome.complete(null);
      } catch (Throwable e) {
        outcome.complete(e);
      }
    });
  }

  /** What the turn threw, or null when it completed; fails when it has not ended within {@code timeout}. */
  public Throwable outcome(Duration timeout) throws InterruptedException {
    try {
      return outcome.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("the turn did not end within " + timeout, e);
    } catch (ExecutionException e) {
      throw new AssertionError("the turn's outcome is never an exception", e);
    }
  }
}
