package dev.roundhouse.hub.model;

import java.time.Instant;

/**
 * A hub process using the database, as it registered itself: {@code doctor} lists them, with how long ago
 * each last beat. Immutable.
 *
 * @param id chosen at the process's start, never reused
 * @param url where its HTTP server listens; null until it listens
 * @param heartbeatAt its last heartbeat (every few seconds while it runs)
 */
public record Worker(String id, String host, long pid, String url, Instant startedAt, Instant heartbeatAt) {}
