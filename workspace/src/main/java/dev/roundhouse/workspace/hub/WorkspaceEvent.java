package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.events.HubEvent;
import dev.roundhouse.workspace.BaseRewrite;
import dev.roundhouse.workspace.MergeResult;
import dev.roundhouse.workspace.PullRequest;
import dev.roundhouse.workspace.TaskWorktree;
import java.util.List;

/**
 * The durable events of the workspace extension, each appended in the same transaction as the record change
 * it reports ({@code docs/events.md}). Immutable.
 */
sealed interface WorkspaceEvent extends HubEvent {

  /** A task's branch and worktree were cut. */
  record Created(TaskWorktree worktree, String workingDirectory, List<String> notes) implements WorkspaceEvent {
    @Override
    public String type() {
      return "workspace.created";
    }
  }

  /** A task's worktree folder was missing or half-created and was restored from its branch. */
  record Repaired(TaskWorktree worktree, String workingDirectory, List<String> notes) implements WorkspaceEvent {
    @Override
    public String type() {
      return "workspace.repaired";
    }
  }

  /** task_merge landed the task on its base (fast-forward or merge commit). */
  record Merged(String branch, MergeResult result) implements WorkspaceEvent {
    @Override
    public String type() {
      return "workspace.merged";
    }
  }

  /** task_sync brought the base into the task's branch. */
  record Synced(String branch, MergeResult result) implements WorkspaceEvent {
    @Override
    public String type() {
      return "workspace.synced";
    }
  }

  /** A merge or sync conflicted (nothing was changed); {@code asked_agent} when the task's agent was asked to resolve it. */
  record Conflicted(String branch, String operation, MergeResult result, boolean askedAgent) implements WorkspaceEvent {
    @Override
    public String type() {
      return "workspace.conflict";
    }
  }

  /** A project's base branch for new task workspaces was set. */
  record BaseSet(String baseBranch, String before) implements WorkspaceEvent {
    @Override
    public String type() {
      return "workspace.base_set";
    }
  }

  /** The base was rewritten under a task (force-push upstream): the task is flagged. */
  record BaseRewritten(String branch, BaseRewrite rewrite) implements WorkspaceEvent {
    @Override
    public String type() {
      return "workspace.base_rewritten";
    }
  }

  /** The task's work is on its base: by task_merge or a merged pull request. */
  record Landed(String how, String commit, Long pullRequest) implements WorkspaceEvent {
    @Override
    public String type() {
      return "workspace.landed";
    }
  }

  /** The task's worktree and branch were removed after proof that its work landed. */
  record Reclaimed(String branch, String path, String reason, boolean swept) implements WorkspaceEvent {
    @Override
    public String type() {
      return "workspace.reclaimed";
    }
  }

  /** A review was submitted (or replaced). */
  record ReviewSubmitted(Stored.Review review) implements WorkspaceEvent {
    @Override
    public String type() {
      return "review.submitted";
    }
  }

  /** A review was withdrawn. */
  record ReviewWithdrawn(Stored.Review review) implements WorkspaceEvent {
    @Override
    public String type() {
      return "review.withdrawn";
    }
  }

  /** A pull request was opened for the task. */
  record PullRequestCreated(String forge, PullRequest pullRequest) implements WorkspaceEvent {
    @Override
    public String type() {
      return "pr.created";
    }
  }

  /** A polled pull request changed: its state, head or checks; {@code before} is the previous state. */
  record PullRequestUpdated(String forge, PullRequest pullRequest, String before) implements WorkspaceEvent {
    @Override
    public String type() {
      return switch (pullRequest.state()) {
        case MERGED -> "pr.merged";
        case CLOSED -> "pr.closed";
        case OPEN -> "pr.updated";
      };
    }
  }
}
