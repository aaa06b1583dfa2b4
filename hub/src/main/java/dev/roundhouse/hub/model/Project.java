package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.time.Instant;

/** A repository the hub works in. Immutable. */
public record Project(
    long id,
    String name,
    @JsonPropertyDescription("Absolute path of the repository") String path,
    @JsonPropertyDescription("Driver used when a task names none") String defaultAgent,
    @JsonPropertyDescription("Context text given to every agent working in this project") String context,
    Instant createdAt,
    Instant updatedAt) {}
