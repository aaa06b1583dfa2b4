package dev.roundhouse.services;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Scheduler} and {@link Clock} that only move when a test calls {@link #advance}; due tasks then
 * run on the test's thread, outside this class's lock. Thread-safe.
 */
final class ManualScheduler extends Clock implements Scheduler {
  private final ReentrantLock lock = new ReentrantLock();
  private final List<Task> tasks = new ArrayList<>();
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");

  private record Task(Instant due, Runnable action) {}

  @Override
  public Subscription schedule(Duration delay, Runnable action) {
    Task task;
    lock.lock();
    try {
      task = new Task(now.plus(delay), action);
      tasks.add(task);
    } finally {
      lock.unlock();
    }
    return () -> {
      lock.lock();
      try {
        tasks.remove(task);
      } finally {
        lock.unlock();
      }
    };
  }

  /** Delays of the tasks waiting, from now. */
  List<Duration> pending() {
    lock.lock();
    try {
      return tasks.stream().map(task -> Duration.between(now, task.due())).toList();
    } finally {
      lock.unlock();
    }
  }

  void advance(Duration by) {
    List<Task> due = new ArrayList<>();
    lock.lock();
    try {
      now = now.plus(by);
      for (Task task : List.copyOf(tasks)) {
        if (!task.due().isAfter(now)) {
          tasks.remove(task);
          due.add(task);
        }
      }
    } finally {
      lock.unlock();
    }
    due.forEach(task -> task.action().run());
  }

  @Override
  public Instant instant() {
    lock.lock();
    try {
      return now;
    } finally {
      lock.unlock();
    }
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
