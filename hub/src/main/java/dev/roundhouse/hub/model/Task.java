package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.core.Actor;
import java.time.Instant;
import java.util.List;

/** A card on the board. Immutable; lists are unmodifiable. */
public record Task(
    long id,
    long projectId,
    String title,
    String description,
    TaskStatus status,
    Priority priority,
    List<String> tags,
    @JsonPropertyDescription("Ids of the tasks that must finish before this one") List<Long> blockedBy,
    @JsonPropertyDescription("Filed by an agent and not yet accepted by the user") boolean suggested,
    @JsonPropertyDescription("Driver that works on this task; the project's default when absent") String agent,
    String branch,
    @JsonPropertyDescription(
            "Its first turn starts by itself at this instant (a deferred start); cleared when that start fires")
        Instant startAt,
    @JsonPropertyDescription(
            "Starts its first turn by itself once every blocked_by task is done or cancelled; cleared when that"
                + " start fires")
        boolean autoStart,
    Actor createdBy,
    Instant createdAt,
    Instant updatedAt) {

  public Task {
    tags = tags == null ? List.of() : List.copyOf(tags);
    blockedBy = blockedBy == null ? List.of() : List.copyOf(blockedBy);
  }
}
