package dev.roundhouse.hub.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.model.Compaction;
import java.time.Instant;
import java.util.List;

/** The wire contract of the retention operations ({@code retention_prune}, {@code retention_status}). */
public final class RetentionApi {
  private RetentionApi() {}

  public record PruneRequest(
      @JsonPropertyDescription("Prune tasks idle at least this many days (at least 1); the configured policy's days when absent")
          Integer days,
      @JsonPropertyDescription("List what would be pruned without changing anything") Boolean dryRun) {}

  /** A task whose events were (or would be) pruned. */
  public record PrunedTask(
      long task,
      long projectId,
      String title,
      String status,
      @JsonPropertyDescription("Its newest update, event or turn") Instant lastActivity,
      @JsonPropertyDescription("Events removed (or that would be)") long events,
      @JsonPropertyDescription("Their stored size in bytes (payload, type, actor)") long bytes,
      @JsonPropertyDescription("Lowest sequence number removed") long firstSeq,
      @JsonPropertyDescription("Highest sequence number removed") long lastSeq) {}

  /** A finished, cold task the policy keeps, and why. */
  public record KeptTask(
      long task,
      String title,
      @JsonPropertyDescription("queued_messages, live_turn, pending_decision, scheduled_run, session_referenced") List<String> reasons,
      @JsonPropertyDescription("What holds it, in words") String detail) {}

  public record PruneResult(
      boolean dryRun,
      @JsonPropertyDescription("Idle days the run used") int days,
      @JsonPropertyDescription("Tasks idle since before this instant were eligible") Instant idleBefore,
      List<PrunedTask> tasks,
      @JsonPropertyDescription("Events removed (or that would be), all tasks") long events,
      @JsonPropertyDescription("Their stored size in bytes") long bytes,
      @JsonPropertyDescription("Finished, cold tasks kept by a protection rule") List<KeptTask> kept,
      @JsonPropertyDescription("How the database file shrank; absent on a dry run or when nothing was removed")
          Compaction compaction,
      @JsonPropertyDescription("Bytes the database file gave back (0 on a dry run)") long bytesFreed) {}

  public record Policy(
      @JsonPropertyDescription("Idle days before a finished task's events are pruned; 0 when automatic pruning is off") int days,
      @JsonPropertyDescription("Whether the hub prunes by itself once a day") boolean automatic,
      @JsonPropertyDescription("The database's auto_vacuum mode: none (the next prune runs one full VACUUM), incremental or full")
          String autoVacuum,
      @JsonPropertyDescription("When the daily prune next runs, when automatic") Instant nextRun) {}

  public record LastRun(Instant at, String actor, PruneResult result) {}

  public record Status(
      Policy policy,
      @JsonPropertyDescription("The last prune since the hub started (not a dry run); absent when none ran") LastRun lastRun,
      @JsonPropertyDescription("What a prune with the policy's days would remove now (a dry run); absent when the policy is off")
          PruneResult eligible) {}
}
