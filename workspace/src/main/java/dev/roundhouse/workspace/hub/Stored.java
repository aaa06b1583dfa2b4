package dev.roundhouse.workspace.hub;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.workspace.BaseRewrite;
import dev.roundhouse.workspace.PullRequest;
import dev.roundhouse.workspace.PullRequestState;
import dev.roundhouse.workspace.TaskWorktree;
import java.time.Instant;
import java.util.List;

/**
 * What the extension keeps in the hub's store (namespace {@value #NAMESPACE}), one record type per key
 * prefix; see {@code docs/workspace.md} ("Records"). Immutable.
 */
final class Stored {
  static final String NAMESPACE = "workspace";

  private Stored() {}

  static String task(long task) {
    return "task/" + task;
  }

  static String project(long project) {
    return "project/" + project;
  }

  static String pullRequests(long task) {
    return "pr/" + task + "/";
  }

  static String pullRequest(long task, long number) {
    return pullRequests(task) + number;
  }

  static String reviews(long task) {
    return "review/" + task + "/";
  }

  static String review(long task, Actor reviewer) {
    return reviews(task) + reviewer;
  }

  static String landed(long task) {
    return "landed/" + task;
  }

  static String rewrite(long task) {
    return "rewrite/" + task;
  }

  /** {@code task/<id>}: the task's workspace, recorded when it was cut (and again when it was repaired). */
  record TaskRecord(TaskWorktree worktree, Instant createdAt, List<String> notes) {
    TaskRecord {
      notes = notes == null ? List.of() : List.copyOf(notes);
    }
  }

  /** {@code project/<id>}: the project's base branch for new task workspaces. */
  record ProjectRecord(String baseBranch) {}

  /**
   * {@code pr/<task>/<number>}: a pull request the task opened, as its forge last reported it.
   *
   * @param forge {@code gh} or {@code local:<bare repository>}: the forge that holds it (polled there)
   */
  record PullRequestRecord(long task, String forge, PullRequest pullRequest, Instant createdAt, Instant checkedAt) {
    boolean open() {
      return pullRequest.state() == PullRequestState.OPEN;
    }
  }

  /** One comment of a review, anchored to a file and a line of the task's diff. */
  record ReviewComment(
      @JsonPropertyDescription("The file's path in the task's diff") String path,
      @JsonPropertyDescription("The line in the task's version of the file (1-based)") int line,
      @JsonPropertyDescription("What the reviewer says about it") String body) {}

  /** {@code review/<task>/<reviewer>}: a reviewer's one current review of a task (a new one replaces it). */
  record Review(
      long task,
      @JsonPropertyDescription("Who reviewed: user, agent:<task>, client:<name>") Actor reviewer,
      @JsonPropertyDescription("approve or request_changes") String verdict,
      String summary,
      List<ReviewComment> comments,
      @JsonPropertyDescription("The task branch's tip the review saw") String head,
      Instant submittedAt) {
    Review {
      comments = comments == null ? List.of() : List.copyOf(comments);
    }
  }

  /**
   * {@code landed/<task>}: the task's work is on its base.
   *
   * @param how {@code merge} (task_merge) or {@code pull_request} (a merged pull request)
   */
  record Landed(String how, String commit, Long pullRequest, Instant at) {}

  /** {@code rewrite/<task>}: the base was rewritten under the task (reported, never rebased). */
  record Rewrite(BaseRewrite rewrite, Instant reportedAt) {}
}
