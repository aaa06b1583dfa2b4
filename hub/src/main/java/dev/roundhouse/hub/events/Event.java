package dev.roundhouse.hub.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import java.time.Instant;

/**
 * A durable record of something that happened, with its place in the hub's one global sequence. Events are
 * written in the same transaction as the change that caused them and published only after that commit, so
 * a face that reconnects with "everything after {@code seq}" misses nothing. Immutable.
 *
 * @param seq the global, strictly increasing sequence number
 * @param type what happened, such as {@code task.updated}; see {@code docs/events.md}
 * @param data the type's payload
 */
public record Event(
    long seq, String type, Instant at, Actor actor, Long projectId, Long taskId, JsonNode data) {}
