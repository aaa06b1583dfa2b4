package dev.roundhouse.calendaragent;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.nio.file.WatchService;

/**
 * Notices the calendar prompt's override being created, edited or deleted, by looking at its file's
 * {@link CalendarPrompt.Stamp} (exists, modified, size) every {@link #INTERVAL}, and runs {@code changed} when
 * it differs from the last look. The override is the user's own file, edited outside the hub, so there is no
 * write to hook. Polling rather than a {@link WatchService}: it works the same on every file system
 * (a network home too) and costs one {@code stat} a second, where a watch on the Roundhouse home would wake at
 * every database commit (the WAL file is in the same folder).
 *
 * <p>Thread-safe: one virtual thread looks; the last stamp is an {@link AtomicReference}, so {@link #check} may
 * also be called from elsewhere (tests); {@code changed} runs on the looking thread with no lock held.
 * {@link #close} stops the looking and waits for it.
 */
final class PromptWatch implements AutoCloseable {
  /** How often the override's file is looked at. */
  static final Duration INTERVAL = Duration.ofSeconds(1);

  private static final Logger log = LoggerFactory.getLogger(PromptWatch.class);

  private final CalendarPrompt prompt;
  private final Runnable changed;
  private final AtomicReference<CalendarPrompt.Stamp> last;
  private final ScheduledExecutorService looker =
      Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("calendar-prompt-watch").factory());

  private PromptWatch(CalendarPrompt prompt, Runnable changed) {
    this.prompt = prompt;
    this.changed = changed;
    this.last = new AtomicReference<>(stampOrNull());
  }

  /** Looks at {@code prompt}'s override every {@code interval} from now on, running {@code changed} when it changed. */
  static PromptWatch start(CalendarPrompt prompt, Duration interval, Runnable changed) {
    PromptWatch watch = new PromptWatch(prompt, changed);
    long nanos = interval.toNanos();
    watch.looker.scheduleWithFixedDelay(watch::check, nanos, nanos, TimeUnit.NANOSECONDS);
    return watch;
  }

  /** Looks once: runs {@code changed} if the override's stamp is not the one seen last. */
  void check() {
    CalendarPrompt.Stamp now = stampOrNull();
    if (now == null) {
      return; // could not look this time; the next look decides
    }
    CalendarPrompt.Stamp before = last.getAndSet(now);
    if (!now.equals(before)) {
      try {
        changed.run();
      } catch (RuntimeException e) {
        log.warn("telling that the calendar prompt changed failed", e);
      }
    }
  }

  private CalendarPrompt.Stamp stampOrNull() {
    try {
      return prompt.stamp();
    } catch (RuntimeException e) {
      log.debug("cannot look at the calendar prompt: {}", e.toString());
      return null;
    }
  }

  @Override
  public void close() {
    looker.shutdownNow();
    try {
      looker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
