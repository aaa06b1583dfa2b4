package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.core.Actor;
import java.time.Instant;

/**
 * A recurrence that fires a runbook (or a prompt of its own) in a project. Immutable.
 *
 * @param nextAt the next firing, or null when the recurrence has ended
 */
public record Schedule(
    long id,
    long projectId,
    @JsonPropertyDescription("Unique in its project (case-insensitive)") String name,
    @JsonPropertyDescription("The runbook each firing runs; absent when the schedule has a prompt of its own") Long runbookId,
    @JsonPropertyDescription("The prompt each firing runs when there is no runbook") String prompt,
    @JsonPropertyDescription("An RFC 5545 RRULE (FREQ=...) or a five-field cron expression") String recurrence,
    @JsonPropertyDescription("IANA time zone the recurrence's wall-clock times are in") String zone,
    @JsonPropertyDescription("Firings missed while the hub was down: skip them, or run once") MissedPolicy missed,
    @JsonPropertyDescription("A firing while the previous run still goes: skip it, queue it, or allow both") OverlapPolicy overlap,
    boolean paused,
    @JsonPropertyDescription("The next firing; absent when paused past its end or the recurrence has ended") Instant nextAt,
    Actor createdBy,
    Instant createdAt,
    Instant updatedAt) {}
