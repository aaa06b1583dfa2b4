package dev.roundhouse.hub.bench;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.InProcessHub;
import dev.roundhouse.hub.api.ScheduleApi.SchedulerStatus;
import dev.roundhouse.hub.schedules.Scheduler;
import dev.roundhouse.hub.schedules.SchedulerSettings;
import dev.roundhouse.hub.spi.AgentDriver;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A throwaway in-process hub for {@code roundhouse bench scheduler}: its clock is the benchmark's {@link
 * BenchClock}, and its scheduler either ticks only when the benchmark calls {@link #tick} (its timer switched
 * off, {@link SchedulerSettings#withEnabled}) or on its own timer, as a served hub's does. The benchmark itself
 * lives in {@code app}; this is the part of it that has to name the scheduler.
 *
 * <p>Thread-safe, as the hub is.
 */
public final class SchedulerBenchHub implements AutoCloseable {
  /** What one tick did and how long it took (wall time, {@link System#nanoTime()}). */
  public record TickTime(int fired, int skipped, int queued, int launched, int ended, long startedNanos, long nanos) {}

  private final InProcessHub hub;

  private SchedulerBenchHub(InProcessHub hub) {
    this.hub = hub;
  }

  /**
   * Opens a hub in {@code home} with {@code drivers} on {@code clock}.
   *
   * @param timer true: the scheduler ticks on its own timer (at the next firing, at most every 30 s); false: only
   *     when {@link #tick} is called
   */
  public static SchedulerBenchHub open(Path home, List<? extends AgentDriver> drivers, BenchClock clock, boolean timer) {
    HubConfig config = HubConfig.forHome(home).withClock(clock).withScheduler(SchedulerSettings.DEFAULTS.withEnabled(timer));
    return new SchedulerBenchHub(Hub.open(config, drivers));
  }

  public Hub hub() {
    return hub;
  }

  /** One scheduler tick at {@code now} ({@link Scheduler#tick}), timed. */
  public TickTime tick(Instant now) {
    long started = System.nanoTime();
    Scheduler.Tick tick = hub.scheduler().tick(now);
    long nanos = System.nanoTime() - started;
    return new TickTime(tick.fired(), tick.skipped(), tick.queued(), tick.launched(), tick.ended(), started, nanos);
  }

  /** The scheduler's health, with the time its last tick began ({@link SchedulerStatus#lastTick()}). */
  public SchedulerStatus status() {
    return hub.scheduler().status();
  }

  @Override
  public void close() {
    hub.close();
  }
}
