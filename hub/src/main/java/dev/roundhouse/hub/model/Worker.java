package dev.roundhouse.hub.model;

import java.time.Duration;
import java.time.Instant;

/**
 * A hub process using the database, as it registered itself: {@code doctor} lists them, with how long ago
 * each last beat. Immutable.
 *
 * @param id chosen at the process's start, never reused
 * @param url where its HTTP server listens; null until it listens
 * @param heartbeatAt its last heartbeat (every few seconds while it runs)
 */
public record Worker(String id, String host, long pid, String url, Instant startedAt, Instant heartbeatAt) {
  /** A worker beats every 5 s; one silent this long is taken for gone (dead, or cut off from the database). */
  public static final Duration LOST_AFTER = Duration.ofSeconds(30);

  /** Whether its heartbeat is {@link #LOST_AFTER} old or older at {@code now}. */
  public boolean lost(Instant now) {
    return !heartbeatAt.plus(LOST_AFTER).isAfter(now);
  }
}
