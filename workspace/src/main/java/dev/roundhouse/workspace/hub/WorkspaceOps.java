package dev.roundhouse.workspace.hub;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.workspace.BaseRewrite;
import dev.roundhouse.workspace.MergeResult;
import dev.roundhouse.workspace.ReclaimResult;
import dev.roundhouse.workspace.SweepReport;
import dev.roundhouse.workspace.TaskCommits;
import dev.roundhouse.workspace.TaskDiff;
import dev.roundhouse.workspace.TaskWorktree;
import dev.roundhouse.workspace.WorktreeStatus;
import java.util.List;

/** Inputs and outputs of the workspace operations; their JSON schemas are derived from these records. */
final class WorkspaceOps {
  private WorkspaceOps() {}

  record WorkspaceQuery(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("Cut (or repair) the task's worktree now instead of at its first turn") Boolean ensure) {}

  /**
   * A task's workspace: absent (with {@code note}) until its first turn, or when its project is not a git
   * repository.
   */
  record WorkspaceView(
      long task,
      TaskWorktree worktree,
      @JsonPropertyDescription("Where the task's agent runs (the project's sub-folder inside the worktree)") String workingDirectory,
      @JsonPropertyDescription("created, reused or repaired, when ensure was asked") String outcome,
      WorktreeStatus status,
      @JsonPropertyDescription("The base was rewritten under the task (report_base_rewrite)") BaseRewrite baseRewrite,
      @JsonPropertyDescription("The task's work is on its base: merge or pull_request") String landed,
      List<String> notes,
      String note) {}

  record DiffQuery(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("Include each file's hunks (default false: files and line counts only)") Boolean hunks,
      @JsonPropertyDescription("Only this file (its path in the task)") String path) {}

  record DiffView(long task, String branch, TaskDiff diff) {}

  record TaskRef(@JsonProperty(required = true) long task) {}

  record CommitsView(long task, String branch, TaskCommits commits) {}

  record MergeInput(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("On a conflict, send the conflicting files to the task's agent to resolve (turn_send)") Boolean askAgent) {}

  record MergeView(
      long task,
      String branch,
      MergeResult result,
      @JsonPropertyDescription("The task's agent was sent the conflict") boolean askedAgent,
      @JsonPropertyDescription("How the agent's turn got it: started, queued or lingering") String delivery) {}

  record BaseBranchInput(
      @JsonProperty(required = true) @JsonPropertyDescription("Project id or name") String project,
      @JsonProperty(required = true) @JsonPropertyDescription("The branch new task workspaces are cut from and merged into") String branch) {}

  record BaseBranchView(long project, String baseBranch, String before, String note) {}

  record RewriteView(long task, BaseRewrite rewrite, @JsonPropertyDescription("The task is flagged") boolean flagged) {}

  record ReviewInput(
      @JsonProperty(required = true) @JsonPropertyDescription("The task whose diff is reviewed") long task,
      @JsonProperty(required = true) @JsonPropertyDescription("approve or request_changes") String verdict,
      String summary,
      @JsonPropertyDescription("Comments anchored to a file of the task's diff and a line of its new version") List<Stored.ReviewComment> comments) {}

  record ReviewQuery(@JsonProperty(required = true) long task) {}

  record Reviews(long task, List<Stored.Review> reviews,
      @JsonPropertyDescription("approved, changes_requested or none: the newest verdict of each reviewer combined") String state) {}

  record WithdrawInput(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("Whose review to withdraw (user, agent:<task>, client:<name>); the caller's own when absent;"
          + " only the user withdraws another's") String reviewer) {}

  record Withdrawn(long task, Stored.Review review) {}

  record PullRequestInput(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("The pull request's title; the task's when absent") String title,
      @JsonPropertyDescription("Its body; the task's description when absent") String body,
      @JsonPropertyDescription("The branch to merge into; the task's base when absent") String base) {}

  record PullRequestQuery(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("Ask the forge now instead of showing what was last polled") Boolean refresh) {}

  record PullRequests(long task, List<Stored.PullRequestRecord> pullRequests) {}

  record ReclaimView(
      long task,
      ReclaimResult result,
      @JsonPropertyDescription("What was ended before the removal: the task's dev services and terminals") List<String> stopped) {}

  record SweepInput(
      @JsonPropertyDescription("List what would be removed and why the rest is kept, removing nothing (default true)") Boolean dryRun,
      @JsonPropertyDescription("Keep landed workspaces younger than this; the configured retention when absent") Integer retentionDays,
      @JsonPropertyDescription("Only this project's tasks (id or name)") String project) {}

  record SweepView(SweepReport report, int retentionDays) {}
}
