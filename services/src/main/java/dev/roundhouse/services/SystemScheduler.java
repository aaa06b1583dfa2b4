package dev.roundhouse.services;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real {@link Scheduler}: one daemon timer thread that only hands tasks to virtual threads, so a task
 * that blocks (a stop, a spawn) never delays another. Thread-safe.
 */
final class SystemScheduler implements Scheduler {
  static final SystemScheduler INSTANCE = new SystemScheduler();

  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("services-timer").daemon().factory());

  private SystemScheduler() {}

  @Override
  public Subscription schedule(Duration delay, Runnable task) {
    ScheduledFuture<?> future = timer.schedule(
        () -> Thread.ofVirtual().name("services-task").start(task), delay.toNanos(), TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }
}
