package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.workspace.FileChange;
import dev.roundhouse.workspace.TaskDiff;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Reviews of a task's diff, by people, clients or the agents of other tasks: one current review per reviewer
 * and task (a new one replaces it), comments anchored to a file of the diff and a line of its new version,
 * kept under {@code review/<task>/<reviewer>} with {@code review.submitted} and {@code review.withdrawn} events.
 *
 * <p>Thread-safe (stateless beyond the hub's store).
 */
final class Reviews {
  static final Set<String> VERDICTS = Set.of("approve", "request_changes");

  private final TaskWorkspaces workspaces;
  private final DiffResource resource;

  Reviews(TaskWorkspaces workspaces, DiffResource resource) {
    this.workspaces = workspaces;
    this.resource = resource;
  }

  Stored.Review submit(Actor actor, WorkspaceOps.ReviewInput in) {
    Task task = workspaces.task(actor, in.task());
    if (actor.isAgentOf(task.id())) {
      throw new RoundhouseException.Forbidden("forbidden", "the agent of task " + task.id()
          + " cannot review its own work; another task's agent, a client or the user can");
    }
    String verdict = in.verdict() == null ? "" : in.verdict().strip().toLowerCase(Locale.ROOT);
    if (!VERDICTS.contains(verdict)) {
      throw new RoundhouseException.InvalidInput("verdict '" + in.verdict() + "' is neither approve nor request_changes");
    }
    TaskDiff diff = TaskWorkspaces.refused(() -> workspaces.engine().changes().diff(workspaces.worktree(task.id()), false));
    Set<String> paths = diff.files().stream().map(FileChange::path).collect(Collectors.toSet());
    List<Stored.ReviewComment> comments = in.comments() == null ? List.of() : in.comments();
    for (Stored.ReviewComment comment : comments) {
      if (comment.path() == null || !paths.contains(comment.path())) {
        throw new RoundhouseException.InvalidInput("comment on '" + comment.path() + "': task " + task.id()
            + "'s diff has no such file (it changes " + (paths.isEmpty() ? "nothing" : String.join(", ", new TreeSet<>(paths))) + ")");
      }
      if (comment.line() < 1) {
        throw new RoundhouseException.InvalidInput("comment on " + comment.path() + ": line " + comment.line() + " is not a line (lines start at 1)");
      }
      if (comment.body() == null || comment.body().isBlank()) {
        throw new RoundhouseException.InvalidInput("comment on " + comment.path() + ":" + comment.line() + " says nothing");
      }
    }
    Stored.Review review = new Stored.Review(task.id(), actor, verdict, in.summary(), comments, diff.head(),
        workspaces.clock().instant());
    workspaces.records().put(Stored.review(task.id(), actor), review,
        TaskWorkspaces.draft(new WorkspaceEvent.ReviewSubmitted(review), actor, task));
    resource.changed(actor, task.id());
    return review;
  }

  WorkspaceOps.Reviews reviews(Actor actor, long taskId) {
    Task task = workspaces.task(actor, taskId);
    List<Stored.Review> reviews = new ArrayList<>(workspaces.records().list(Stored.reviews(task.id())).stream()
        .map(record -> Json.mapper().convertValue(record.value(), Stored.Review.class))
        .toList());
    reviews.sort(Comparator.comparing(Stored.Review::submittedAt).reversed());
    String state = reviews.stream().anyMatch(r -> r.verdict().equals("request_changes")) ? "changes_requested"
        : reviews.isEmpty() ? "none" : "approved";
    return new WorkspaceOps.Reviews(task.id(), reviews, state);
  }

  WorkspaceOps.Withdrawn withdraw(Actor actor, WorkspaceOps.WithdrawInput in) {
    Task task = workspaces.task(actor, in.task());
    Actor reviewer = actor;
    if (in.reviewer() != null && !in.reviewer().isBlank()) {
      try {
        reviewer = Actor.parse(in.reviewer().strip());
      } catch (IllegalArgumentException e) {
        throw new RoundhouseException.InvalidInput(e.getMessage());
      }
      if (!reviewer.equals(actor) && actor.kind() != Actor.Kind.USER) {
        throw new RoundhouseException.Forbidden("forbidden", "only the user withdraws another's review; " + actor
            + " may withdraw its own");
      }
    }
    String key = Stored.review(task.id(), reviewer);
    Actor whose = reviewer;
    Stored.Review review = workspaces.records().get(key, Stored.Review.class).orElseThrow(() ->
        new RoundhouseException.NotFound("task " + in.task() + " has no review by " + whose));
    workspaces.records().delete(key, TaskWorkspaces.draft(new WorkspaceEvent.ReviewWithdrawn(review), actor, task));
    resource.changed(actor, task.id());
    return new WorkspaceOps.Withdrawn(task.id(), review);
  }
}
