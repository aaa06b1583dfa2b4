package dev.roundhouse.hub.model;

import dev.roundhouse.hub.core.Actor;
import java.time.Instant;

/** A message waiting for its task's turn, in order of {@code id}. Immutable. */
public record QueuedMessage(long id, long taskId, String message, String driver, Actor queuedBy, Instant queuedAt) {}
