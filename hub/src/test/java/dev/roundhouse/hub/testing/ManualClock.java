package dev.roundhouse.hub.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock a test moves by hand. Thread-safe. */
public final class ManualClock extends Clock {
  private final AtomicReference<Instant> now;

  public ManualClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /** Moves the clock to {@code at}, forward or back. */
  public void set(Instant at) {
    now.set(at);
  }

  public void advance(Duration by) {
    now.updateAndGet(t -> t.plus(by));
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now.get();
  }
}
