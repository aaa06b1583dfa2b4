package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.core.Actor;
import java.time.Instant;
import java.util.List;

/** A saved prompt with how to run it: what {@code runbook_run} and a schedule mint a task from. Immutable. */
public record Runbook(
    long id,
    long projectId,
    @JsonPropertyDescription("Unique in its project (case-insensitive)") String name,
    @JsonPropertyDescription("The first message of every run") String prompt,
    @JsonPropertyDescription("Driver id; the project's default when absent") String driver,
    String model,
    String permissionMode,
    @JsonPropertyDescription("Priority of the tasks it mints") Priority priority,
    @JsonPropertyDescription("Tags of the tasks it mints") List<String> tags,
    @JsonPropertyDescription("Whether the agent is given the project's context text") boolean sendContext,
    Actor createdBy,
    Instant createdAt,
    Instant updatedAt) {

  public Runbook {
    tags = tags == null ? List.of() : List.copyOf(tags);
  }
}
