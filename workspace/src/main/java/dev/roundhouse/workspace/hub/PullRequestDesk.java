package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.workspace.Forge;
import dev.roundhouse.workspace.PullRequest;
import dev.roundhouse.workspace.PullRequestDraft;
import dev.roundhouse.workspace.PullRequestState;
import dev.roundhouse.workspace.TaskWorktree;
import dev.roundhouse.workspace.WorkspaceException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pull requests of tasks: {@code create_pr} through the configured forge, and polling of open ones (by the
 * extension's poller or {@code task_pull_requests} with refresh), each change becoming a {@code pr.updated},
 * {@code pr.merged} or {@code pr.closed} event; a merged pull request marks its task landed.
 *
 * <p>Thread-safe (stateless beyond the hub's store). Two polls of one pull request at once may both record
 * the same change; the second finds nothing new and records nothing.
 */
final class PullRequestDesk {
  private static final Logger log = LoggerFactory.getLogger(PullRequestDesk.class);

  private final TaskWorkspaces workspaces;
  private final WorkspaceSettings settings;
  /** One forge object per name: a local forge serialises its bare repository with a lock of its own. */
  private final ConcurrentHashMap<String, Forge> forges = new ConcurrentHashMap<>();

  PullRequestDesk(TaskWorkspaces workspaces, WorkspaceSettings settings) {
    this.workspaces = workspaces;
    this.settings = settings;
  }

  Stored.PullRequestRecord create(Actor actor, WorkspaceOps.PullRequestInput in) {
    Task task = workspaces.task(actor, in.task());
    if (actor.isAgent() && !actor.isAgentOf(task.id())) {
      throw new RoundhouseException.Forbidden("forbidden", "an agent opens pull requests only for its own task, not task " + task.id());
    }
    TaskWorktree worktree = workspaces.worktree(task.id());
    String forgeName = settings.forge();
    if (forgeName == null) {
      throw new RoundhouseException.Conflict("no forge is configured for pull requests: set " + WorkspaceSettings.FORGE
          + "=gh (with the GitHub CLI installed and signed in: gh auth login) or " + WorkspaceSettings.FORGE
          + "=local:/path/to/bare.git (a bare repository: git init --bare /path/to/bare.git) in the hub's environment,"
          + " then restart the hub");
    }
    PullRequestDraft draft = new PullRequestDraft(worktree.repository(),
        in.title() != null && !in.title().isBlank() ? in.title() : task.title(),
        in.body() != null ? in.body() : task.description() == null ? "" : task.description(),
        in.base() != null && !in.base().isBlank() ? in.base() : worktree.baseBranch(),
        worktree.branch());
    PullRequest opened = TaskWorkspaces.refused(() -> forge(forgeName).create(draft));
    Stored.PullRequestRecord record = new Stored.PullRequestRecord(task.id(), forgeName, opened,
        workspaces.clock().instant(), workspaces.clock().instant());
    workspaces.records().put(Stored.pullRequest(task.id(), opened.number()), record,
        TaskWorkspaces.draft(new WorkspaceEvent.PullRequestCreated(forgeName, opened), actor, task));
    return record;
  }

  /** Polls the task's open pull requests now; returns them all. */
  List<Stored.PullRequestRecord> refresh(Actor actor, long task) {
    workspaces.pullRequests(task).stream().filter(Stored.PullRequestRecord::open).forEach(pr -> poll(actor, pr, true));
    return workspaces.pullRequests(task);
  }

  /** Polls every open pull request of every task (the poller's round); a failure is logged and retried next round. */
  void pollAll() {
    List<Stored.PullRequestRecord> open = workspaces.records().list("pr/").stream()
        .map(record -> Json.mapper().convertValue(record.value(), Stored.PullRequestRecord.class))
        .filter(Stored.PullRequestRecord::open)
        .toList();
    for (Stored.PullRequestRecord pr : open) {
      try {
        poll(Actor.SCHEDULER, pr, false);
      } catch (RuntimeException e) {
        log.info("polling pull request {} of task {}: {}", pr.pullRequest().number(), pr.task(), e.getMessage());
      }
    }
  }

  private void poll(Actor actor, Stored.PullRequestRecord pr, boolean report) {
    TaskWorktree worktree = workspaces.recorded(pr.task()).map(Stored.TaskRecord::worktree).orElse(null);
    String repository = worktree == null ? null : worktree.repository();
    PullRequest now;
    try {
      now = forge(pr.forge()).status(repository, pr.pullRequest().number());
    } catch (WorkspaceException e) {
      if (report) {
        throw new RoundhouseException.Conflict(e.getMessage());
      }
      throw e;
    }
    PullRequest was = pr.pullRequest();
    if (now.state() == was.state() && Objects.equals(now.headCommit(), was.headCommit()) && now.checks().equals(was.checks())) {
      return;
    }
    Task task;
    try {
      task = workspaces.task(Actor.USER, pr.task());
    } catch (RoundhouseException.NotFound e) {
      return; // the task was deleted: nothing to report it on
    }
    Stored.PullRequestRecord updated = new Stored.PullRequestRecord(pr.task(), pr.forge(), now, pr.createdAt(),
        workspaces.clock().instant());
    workspaces.records().put(Stored.pullRequest(pr.task(), now.number()), updated,
        TaskWorkspaces.draft(new WorkspaceEvent.PullRequestUpdated(pr.forge(), now, was.state().name().toLowerCase(Locale.ROOT)), actor, task));
    if (now.state() == PullRequestState.MERGED && workspaces.records().get(Stored.landed(pr.task())).isEmpty()) {
      Stored.Landed landed = new Stored.Landed("pull_request", now.headCommit(), now.number(), workspaces.clock().instant());
      workspaces.records().putIfAbsent(Stored.landed(pr.task()), landed,
          TaskWorkspaces.draft(new WorkspaceEvent.Landed("pull_request", now.headCommit(), now.number()), actor, task));
    }
  }

  /** The forge a name stands for: {@code gh} or {@code local:<bare repository>}. */
  Forge forge(String name) {
    return forges.computeIfAbsent(name, this::open);
  }

  private Forge open(String name) {
    if (name.equals("gh")) {
      return workspaces.engine().githubForge(settings.ghExecutable());
    }
    if (name.startsWith("local:")) {
      return workspaces.engine().localForge(Path.of(name.substring("local:".length())));
    }
    throw new RoundhouseException.Conflict("unknown forge '" + name + "': expected gh or local:<bare repository>");
  }
}
