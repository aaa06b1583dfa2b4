package dev.roundhouse.hub.bench;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock a benchmark sets: it stands still at a time ({@link #freezeAt}), or reads a time at the moment it is
 * set and runs on from there at real speed ({@link #runFrom}, measured with {@link System#nanoTime()}), so a
 * benchmark can put "now" at a scheduled minute and still measure real delays after it. Always UTC.
 *
 * <p>Thread-safe: the setting is one atomic reference.
 */
public final class BenchClock extends Clock {
  /** Where the clock was set: {@code at} at {@code nanos}, and whether it runs on from there. */
  private record Setting(Instant at, long nanos, boolean running) {}

  private final AtomicReference<Setting> setting;

  /** A clock standing still at {@code at}. */
  public BenchClock(Instant at) {
    this.setting = new AtomicReference<>(new Setting(at, System.nanoTime(), false));
  }

  /** Stops the clock at {@code at}. */
  public void freezeAt(Instant at) {
    setting.set(new Setting(at, System.nanoTime(), false));
  }

  /** Makes the clock read {@code at} now and run on from there at real speed. */
  public void runFrom(Instant at) {
    setting.set(new Setting(at, System.nanoTime(), true));
  }

  /**
   * The {@link System#nanoTime()} at which a running clock reads (or read) {@code at}; for a stopped clock, the
   * moment it was stopped.
   */
  public long nanosAt(Instant at) {
    Setting s = setting.get();
    if (!s.running()) {
      return s.nanos();
    }
    return s.nanos() + Math.multiplyExact(at.getEpochSecond() - s.at().getEpochSecond(), 1_000_000_000L)
        + (at.getNano() - s.at().getNano());
  }

  @Override
  public Instant instant() {
    Setting s = setting.get();
    return s.running() ? s.at().plusNanos(System.nanoTime() - s.nanos()) : s.at();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
