package dev.roundhouse.hub.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.model.MissedPolicy;
import dev.roundhouse.hub.model.OverlapPolicy;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.ScheduleRun;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.Turn;
import java.time.Instant;
import java.util.List;

/** The wire contract of runbooks, schedules and the scheduler. */
public final class ScheduleApi {
  private ScheduleApi() {}

  private static final String PROJECT_REF = "Project id, or its exact name (case-insensitive)";
  private static final String RUNBOOK_REF = "Runbook id, or its name (give the project when several projects use the name)";
  private static final String SCHEDULE_REF = "Schedule id, or its name (give the project when several projects use the name)";
  private static final String RECURRENCE = "An RFC 5545 RRULE such as FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0,"
      + " or a five-field cron expression such as '0 7 * * 1-5'";

  // ---- runbooks ---------------------------------------------------------------------------

  public record RunbookCreate(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT_REF) String project,
      @JsonProperty(required = true) @JsonPropertyDescription("Unique in the project") String name,
      @JsonProperty(required = true) @JsonPropertyDescription("The first message of every run") String prompt,
      @JsonPropertyDescription("Driver id; the project's default when absent") String driver,
      String model,
      String permissionMode,
      @JsonPropertyDescription("normal when absent") Priority priority,
      List<String> tags,
      @JsonPropertyDescription("Give the agent the project's context text (default true)") Boolean sendContext) {}

  public record RunbookRef(
      @JsonProperty(required = true) @JsonPropertyDescription(RUNBOOK_REF) String runbook,
      @JsonPropertyDescription(PROJECT_REF) String project) {}

  public record RunbookUpdate(
      @JsonProperty(required = true) @JsonPropertyDescription(RUNBOOK_REF) String runbook,
      @JsonPropertyDescription(PROJECT_REF + "; only to find the runbook by name") String project,
      String name,
      String prompt,
      @JsonPropertyDescription("Empty string: the project's default") String driver,
      @JsonPropertyDescription("Empty string clears it") String model,
      @JsonPropertyDescription("Empty string clears it") String permissionMode,
      Priority priority,
      @JsonPropertyDescription("Replaces the tags") List<String> tags,
      Boolean sendContext) {}

  public record RunbookQuery(@JsonPropertyDescription("Only this project's; every project's when absent") String project) {}

  public record RunbookList(List<Runbook> runbooks) {}

  public record RunbookDeleted(long runbook, String name) {}

  public record RunbookRun(
      @JsonProperty(required = true) @JsonPropertyDescription(RUNBOOK_REF) String runbook,
      @JsonPropertyDescription(PROJECT_REF) String project,
      @JsonPropertyDescription("Driver for this run instead of the runbook's") String driver,
      @JsonPropertyDescription("Model for this run instead of the runbook's") String model,
      @JsonPropertyDescription("No human is watching: a permission that would ask is denied, a question fails the run")
          Boolean unattended) {}

  /** A run that was started: its new task and first turn. */
  public record RunStarted(Task task, Turn turn) {}

  // ---- schedules --------------------------------------------------------------------------

  public record ScheduleCreate(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT_REF) String project,
      @JsonProperty(required = true) @JsonPropertyDescription("Unique in the project") String name,
      @JsonPropertyDescription("The runbook each firing runs (" + RUNBOOK_REF + "); give this or a prompt") String runbook,
      @JsonPropertyDescription("The prompt each firing runs with the project's default driver; give this or a runbook")
          String prompt,
      @JsonProperty(required = true) @JsonPropertyDescription(RECURRENCE) String recurrence,
      @JsonProperty(required = true) @JsonPropertyDescription("IANA time zone of the wall-clock times, such as Europe/Berlin")
          String zone,
      @JsonPropertyDescription("Firings missed while the hub was down: skip (default) or run_once") MissedPolicy missed,
      @JsonPropertyDescription("A firing while the previous run still goes: skip (default), queue or allow") OverlapPolicy overlap,
      @JsonPropertyDescription("Create it paused") Boolean paused) {}

  public record ScheduleRef(
      @JsonProperty(required = true) @JsonPropertyDescription(SCHEDULE_REF) String schedule,
      @JsonPropertyDescription(PROJECT_REF) String project) {}

  public record ScheduleUpdate(
      @JsonProperty(required = true) @JsonPropertyDescription(SCHEDULE_REF) String schedule,
      @JsonPropertyDescription(PROJECT_REF + "; only to find the schedule by name") String project,
      String name,
      @JsonPropertyDescription("Run this runbook instead (clears the prompt)") String runbook,
      @JsonPropertyDescription("Run this prompt instead (clears the runbook)") String prompt,
      @JsonPropertyDescription(RECURRENCE) String recurrence,
      String zone,
      MissedPolicy missed,
      OverlapPolicy overlap) {}

  public record ScheduleQuery(@JsonPropertyDescription("Only this project's; every project's when absent") String project) {}

  /** A schedule with its latest run: what a list shows (next firing, last outcome). */
  public record ScheduleView(Schedule schedule, String runbook, ScheduleRun lastRun) {}

  public record ScheduleList(List<ScheduleView> schedules) {}

  public record ScheduleDeleted(long schedule, String name) {}

  public record SchedulePreview(
      @JsonPropertyDescription(SCHEDULE_REF + "; or give recurrence and zone to try one out") String schedule,
      @JsonPropertyDescription(PROJECT_REF) String project,
      @JsonPropertyDescription(RECURRENCE) String recurrence,
      String zone,
      @JsonPropertyDescription("Firings after this instant; now when absent") Instant from,
      @JsonPropertyDescription("How many firings (default 10, at most 500)") Integer count) {}

  /** One firing: the instant, and the wall-clock time in the schedule's zone. */
  public record Firing(Instant at, @JsonPropertyDescription("Wall-clock time with its offset, in the zone") String local) {}

  public record Firings(String recurrence, String zone, List<Firing> firings) {}

  public record ScheduleRunsQuery(
      @JsonProperty(required = true) @JsonPropertyDescription(SCHEDULE_REF) String schedule,
      @JsonPropertyDescription(PROJECT_REF) String project,
      @JsonPropertyDescription("At most this many, newest first (default 50, at most 1000)") Integer limit) {}

  public record ScheduleRuns(Schedule schedule, List<ScheduleRun> runs) {}

  // ---- scheduler health -------------------------------------------------------------------

  /** How the scheduler is doing: what {@code doctor} and {@code /api/health} report. */
  public record SchedulerStatus(
      @JsonPropertyDescription("False when switched off by configuration (ROUNDHOUSE_SCHEDULER=off)") boolean enabled,
      @JsonPropertyDescription("When the last tick ran") Instant lastTick,
      @JsonPropertyDescription("How long the last tick took, in milliseconds") long lastTickMillis,
      @JsonPropertyDescription("How far behind the oldest due firing is, in milliseconds (0 when none is due)") long lagMillis,
      @JsonPropertyDescription("The earliest next firing of any active schedule") Instant nextFiring,
      int activeSchedules,
      @JsonPropertyDescription("Pending, queued or running scheduled runs") int openRuns,
      @JsonPropertyDescription("True when the scheduler looks stuck; reason says why") boolean stuck,
      String reason) {}
}
