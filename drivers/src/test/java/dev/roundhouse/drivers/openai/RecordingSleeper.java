package dev.roundhouse.drivers.openai;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link Sleeper} that records the waits it is asked for and returns at once. Thread-safe. */
final class RecordingSleeper implements Sleeper {
  private final List<Duration> waits = new CopyOnWriteArrayList<>();

  @Override
  public void sleep(Duration duration) {
    waits.add(duration);
  }

  List<Duration> waits() {
    return List.copyOf(waits);
  }
}
