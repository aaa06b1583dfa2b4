package dev.roundhouse.hub.model;

import java.time.Instant;

/**
 * A finished generation of a task: {@code task_clear} condensed its transcript into {@code summary}, which
 * seeds every later generation. Events up to {@code lastSeq} belong to it or earlier ones. Immutable.
 */
public record Generation(long taskId, int generation, String summary, String summarisedBy, long lastSeq, Instant endedAt) {}
