package dev.roundhouse.workspace.hub;

import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.workspace.Workspace;
import dev.roundhouse.workspace.WorkspaceConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.ops.OperationRegistry;

/**
 * The workspace module's hub extension: every task of a git project gets its own branch and worktree on its
 * first turn ({@link WorktreePlacer}), and the path from "an agent wrote code" to "landed" is a set of
 * operations every face offers ({@link WorkspaceOperations}): diff, commits, merge, sync, base branch, base
 * rewrite, reviews, pull requests, reclaim and the retention sweep. An agent's move of a task to done is refused
 * while its work is stranded ({@link StrandedWorkGuard}); the task's diff is the resource
 * {@code roundhouse://tasks/{id}/diff} ({@link DiffResource}), whose subscribers hear of merges, syncs, reviews
 * and the end of every turn ({@link TurnEndWatch}). A poller ({@code workspace-poll}) turns pull request
 * changes into events, runs the retention sweep when it is on, and looks for base rewrites ({@link RewriteWatch}).
 *
 * <p>Thread-safe: what {@link #start} creates is published through atomic references and never changed.
 */
public final class WorkspaceExtension implements HubExtension {
  private static final Logger log = LoggerFactory.getLogger(WorkspaceExtension.class);
  private static final Duration SWEEP_EVERY = Duration.ofHours(1);

  private final WorkspaceSettings settings;
  private final AtomicReference<TurnEndWatch> watch = new AtomicReference<>();
  private final AtomicReference<ScheduledExecutorService> poller = new AtomicReference<>();
  private final AtomicReference<Runnable> poll = new AtomicReference<>(() -> { });

  public WorkspaceExtension(WorkspaceSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  @Override
  public String name() {
    return "workspace";
  }

  public WorkspaceSettings settings() {
    return settings;
  }

  @Override
  public void start(ExtensionContext context) {
    WorkspaceConfig config = WorkspaceConfig.defaults(settings.worktreesRoot())
        .withBranchPrefix(settings.branchPrefix())
        .withGit(settings.git(), settings.gitEnvironment());
    Workspace engine = Workspace.create(config, context.clock());
    TaskWorkspaces workspaces = new TaskWorkspaces(context, engine);
    DiffResource resource = new DiffResource(context);
    Reviews reviews = new Reviews(workspaces, resource);
    resource.use(workspaces, reviews);
    PullRequestDesk pullRequests = new PullRequestDesk(workspaces, settings);
    Cleanups cleanups = new Cleanups(workspaces, resource, settings);
    new WorkspaceOperations(workspaces, new Landings(workspaces, resource), reviews, pullRequests, cleanups)
        .register(context.operations());
    context.placeTurns(new WorktreePlacer(workspaces));
    context.guardStatusChanges(new StrandedWorkGuard(workspaces));
    context.contributeToTurns(new WorkspaceTools(workspaces));
    context.offerResource(resource.resource());
    replace(watch, TurnEndWatch.start(context.events(), task -> workspaces.recorded(task).isPresent(),
        task -> resource.changed(Actor.agent(task), task)));
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("workspace-poll").factory());
    AtomicReference<Instant> lastSweep = new AtomicReference<>(Instant.MIN);
    RewriteWatch rewrites = new RewriteWatch(workspaces, settings.rewriteCheck());
    Runnable round = () -> {
      try {
        pullRequests.pollAll();
        Instant now = context.clock().instant();
        if (settings.retentionDays() > 0 && !lastSweep.get().plus(SWEEP_EVERY).isAfter(now)) {
          lastSweep.set(now);
          cleanups.scheduledSweep();
        }
      } catch (RuntimeException e) {
        log.warn("workspace poll: {}", e.getMessage(), e);
      }
      try {
        rewrites.tick();
      } catch (RuntimeException e) {
        log.warn("workspace rewrite check: {}", e.getMessage(), e);
      }
    };
    poll.set(round);
    long every = settings.pollInterval().toMillis();
    scheduler.scheduleWithFixedDelay(round, every, every, TimeUnit.MILLISECONDS);
    ScheduledExecutorService previous = poller.getAndSet(scheduler);
    if (previous != null) {
      previous.shutdownNow();
    }
  }

  /**
   * Runs one poll on the caller's thread, as the poller does every poll interval: pull requests, the retention sweep and
   * the rewrite check when due by the hub's clock. For tests, which move the clock instead of sleeping.
   */
  void pollNow() {
    poll.get().run();
  }

  /**
   * Registers the workspace's operations in {@code registry} for their descriptions only (generated documentation,
   * offline catalogs): the registry must never invoke them.
   */
  public static void describe(OperationRegistry registry) {
    new WorkspaceOperations(null, null, null, null, null).register(registry);
  }

  private static void replace(AtomicReference<TurnEndWatch> slot, TurnEndWatch next) {
    TurnEndWatch previous = slot.getAndSet(next);
    if (previous != null) {
      previous.close();
    }
  }

  /** Stops the poller and the turn watch; idempotent. */
  @Override
  public void close() {
    ScheduledExecutorService scheduler = poller.getAndSet(null);
    if (scheduler != null) {
      scheduler.shutdownNow();
      try {
        if (!scheduler.awaitTermination(10, TimeUnit.SECONDS)) {
          log.warn("the workspace poller did not stop within 10 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    TurnEndWatch current = watch.getAndSet(null);
    if (current != null) {
      current.close();
    }
  }
}
