package dev.roundhouse.hub.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import java.time.Instant;

/**
 * One field of one task changed by one write, with its value before and after. Edits are what
 * {@code task_revert_edit} undoes. Immutable.
 */
public record TaskEdit(
    long id,
    long taskId,
    Actor actor,
    String field,
    JsonNode before,
    JsonNode after,
    Instant at,
    Instant revertedAt,
    Actor revertedBy) {}
