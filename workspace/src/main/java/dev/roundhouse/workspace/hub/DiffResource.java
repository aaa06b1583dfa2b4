package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.ExtensionResource;
import dev.roundhouse.workspace.TaskDiff;
import dev.roundhouse.workspace.TaskWorktree;
import java.util.List;
import java.util.Map;

/**
 * The resource {@value #TEMPLATE}: a task's diff against its base (hunks included) and its reviews, as
 * {@code task_diff} and {@code get_review} answer them, following {@code task_diff}'s rules. Its change notices
 * go out after a merge, a sync, a review, a reclaim and every end of a turn of a task with a workspace
 * ({@link TurnEndWatch}).
 *
 * <p>Thread-safe (stateless beyond the hub and the engine).
 */
final class DiffResource {
  static final String TEMPLATE = "roundhouse://tasks/{id}/diff";

  /** What a read returns. */
  record Contents(long task, String branch, TaskDiff diff, WorkspaceOps.Reviews reviews) {}

  private final ExtensionContext context;
  private volatile TaskWorkspaces workspaces;
  private volatile Reviews reviews;

  DiffResource(ExtensionContext context) {
    this.context = context;
  }

  void use(TaskWorkspaces workspaces, Reviews reviews) {
    this.workspaces = workspaces;
    this.reviews = reviews;
  }

  static String uri(long task) {
    return "roundhouse://tasks/" + task + "/diff";
  }

  ExtensionResource resource() {
    return new ExtensionResource(TEMPLATE, "task-diff", "A task's changes",
        "A task's diff against the merge-base with its base branch (files, line counts, hunks; uncommitted changes"
            + " marked) and its reviews, as task_diff and get_review show them.",
        "application/json", "task_diff", (actor, uri, variables) -> read(actor, variables.get("id")))
        .withCompleter((actor, variable) -> workspaces.records().list("task/").stream()
            .map(record -> record.key().substring("task/".length())).toList());
  }

  private ExtensionResource.Contents read(Actor actor, String id) {
    long task;
    try {
      task = Long.parseLong(id);
    } catch (NumberFormatException e) {
      throw new RoundhouseException.NotFound("no task '" + id + "': a task id is a number");
    }
    workspaces.task(actor, task);
    TaskWorktree worktree = workspaces.worktree(task);
    TaskDiff diff = TaskWorkspaces.refused(() -> workspaces.engine().changes().diff(worktree, true));
    Contents contents = new Contents(task, worktree.branch(), diff, reviews.reviews(actor, task));
    return new ExtensionResource.Contents("application/json", Json.write(contents),
        Map.of("head", String.valueOf(diff.head()), "base_tip", String.valueOf(diff.baseTip())));
  }

  /** Tells subscribers that task {@code task}'s diff may have changed. */
  void changed(Actor actor, long task) {
    changed(actor, List.of(task));
  }

  void changed(Actor actor, List<Long> tasks) {
    if (!tasks.isEmpty()) {
      context.resourcesChanged(actor, tasks.stream().map(DiffResource::uri).toArray(String[]::new));
    }
  }
}
