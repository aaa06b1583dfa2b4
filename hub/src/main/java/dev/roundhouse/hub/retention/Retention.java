package dev.roundhouse.hub.retention;

import dev.roundhouse.hub.api.RetentionApi;
import dev.roundhouse.hub.api.RetentionApi.KeptTask;
import dev.roundhouse.hub.api.RetentionApi.PruneRequest;
import dev.roundhouse.hub.api.RetentionApi.PruneResult;
import dev.roundhouse.hub.api.RetentionApi.PrunedTask;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Compaction;
import dev.roundhouse.hub.store.RetentionReads.TaskFacts;
import dev.roundhouse.hub.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The retention policy. A task's events are pruned when the task is <em>terminal</em> (done or cancelled),
 * <em>idle</em> (its newest update, event or turn is at least {@code days} old) and nothing still holds on to
 * it:
 *
 * <ul>
 *   <li>{@code queued_messages}: a message waits in its turn queue (a later turn would answer it);
 *   <li>{@code live_turn}: a turn of it is running or lingering;
 *   <li>{@code pending_decision}: a decision on it (a parked turn) is still pending;
 *   <li>{@code scheduled_run}: a schedule run of it is pending, queued or running;
 *   <li>{@code session_referenced}: a capability module keeps a record of the task under {@code task/<id>}
 *       (the workspace's record of the task's worktree: the folder the agent's session lives and resumes in).
 * </ul>
 *
 * <p>Pruning deletes the task's events (every one but earlier {@code task.pruned} markers) and appends one
 * {@code task.pruned} event saying how many and which sequence range, in the same write, after checking the
 * rules again inside it; the task, its turns (with their session ids), generations and summaries, edits and
 * decisions stay. Then the database file is shrunk ({@link Store#compact()}). A dry run reads the same plan
 * and changes nothing.
 *
 * <p>Thread-safe. One prune runs at a time (a second is refused, the daily run skips); no lock is held.
 */
public final class Retention implements AutoCloseable {
  private final Store store;
  private final RetentionSettings settings;
  private final Clock clock;
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicReference<RetentionApi.LastRun> lastRun = new AtomicReference<>();
  private final DailyPrune daily;

  public Retention(Store store, RetentionSettings settings, Clock clock) {
    this.store = store;
    this.settings = settings;
    this.clock = clock;
    this.daily = new DailyPrune(this, clock);
  }

  /** Starts the daily automatic prune, when the policy has one. */
  public void start() {
    daily.start();
  }

  /** The daily run's check: prunes when a day has passed on the clock since the last automatic run. */
  public boolean tick() {
    return daily.tick();
  }

  @Override
  public void close() {
    daily.close();
  }

  public RetentionSettings settings() {
    return settings;
  }

  /** Prunes (or, on a dry run, lists) what the policy allows with {@code request}'s days. */
  public PruneResult prune(Actor actor, PruneRequest request) {
    int days = days(request.days());
    boolean dryRun = Boolean.TRUE.equals(request.dryRun());
    Instant idleBefore = clock.instant().minus(Duration.ofDays(days));
    Plan plan = store.read(r -> plan(r.retention().terminalTasks(), idleBefore));
    if (dryRun) {
      return result(true, days, idleBefore, plan.eligible().stream().map(Retention::view).toList(), plan.kept(), null);
    }
    if (!running.compareAndSet(false, true)) {
      throw new RoundhouseException.Conflict("a retention prune is already running; try again when it has finished");
    }
    try {
      List<PrunedTask> pruned = new ArrayList<>();
      for (TaskFacts candidate : plan.eligible()) {
        pruneOne(actor, candidate.task(), idleBefore, days).ifPresent(pruned::add);
      }
      Compaction compaction = pruned.isEmpty() ? null : store.compact();
      PruneResult result = result(false, days, idleBefore, pruned, plan.kept(), compaction);
      lastRun.set(new RetentionApi.LastRun(clock.instant(), actor.toString(), result));
      return result;
    } finally {
      running.set(false);
    }
  }

  /** The policy, the last run, and what a prune would remove now. */
  public RetentionApi.Status status() {
    Instant nextRun = daily.due();
    String autoVacuum = store.read(r -> r.retention().autoVacuum());
    PruneResult eligible = settings.automatic() ? prune(Actor.USER, new PruneRequest(null, true)) : null;
    return new RetentionApi.Status(
        new RetentionApi.Policy(settings.days(), settings.automatic(), autoVacuum, settings.automatic() ? nextRun : null),
        lastRun.get(),
        eligible);
  }

  /** Checks the rules again inside the write, so nothing that changed since the plan was read is pruned. */
  private Optional<PrunedTask> pruneOne(Actor actor, long task, Instant idleBefore, int days) {
    return store.write(w -> {
      Optional<TaskFacts> now = w.retention().terminalTask(task);
      if (now.isEmpty() || !cold(now.get(), idleBefore) || !reasons(now.get()).isEmpty()) {
        return Optional.empty();
      }
      TaskFacts facts = now.get();
      int removed = w.retention().deleteTaskEvents(task, facts.lastSeq());
      w.append(new RetentionEvent.Pruned(removed, facts.bytes(), facts.firstSeq(), facts.lastSeq(), days)
          .draft(actor, facts.projectId(), task));
      return Optional.of(view(facts));
    });
  }

  private int days(Integer requested) {
    if (requested == null) {
      if (!settings.automatic()) {
        throw new RoundhouseException.InvalidInput(
            "retention is off (ROUNDHOUSE_RETENTION_DAYS=off): pass days to say how long a finished task must be idle");
      }
      return settings.days();
    }
    if (requested < 1) {
      throw new RoundhouseException.InvalidInput("days must be at least 1, not " + requested);
    }
    return requested;
  }

  private record Plan(List<TaskFacts> eligible, List<KeptTask> kept) {}

  private static Plan plan(List<TaskFacts> terminal, Instant idleBefore) {
    List<TaskFacts> eligible = new ArrayList<>();
    List<KeptTask> kept = new ArrayList<>();
    for (TaskFacts facts : terminal) {
      if (!cold(facts, idleBefore)) {
        continue;
      }
      List<String> reasons = reasons(facts);
      if (reasons.isEmpty()) {
        eligible.add(facts);
      } else {
        kept.add(new KeptTask(facts.task(), facts.title(), reasons, detail(facts)));
      }
    }
    return new Plan(eligible, kept);
  }

  private static boolean cold(TaskFacts facts, Instant idleBefore) {
    return !facts.lastActivity().isAfter(idleBefore);
  }

  /** The protection rules that hold the task, by name; empty when none does. */
  static List<String> reasons(TaskFacts facts) {
    List<String> reasons = new ArrayList<>();
    if (facts.queued() > 0) {
      reasons.add("queued_messages");
    }
    if (facts.liveTurn()) {
      reasons.add("live_turn");
    }
    if (facts.pendingDecision()) {
      reasons.add("pending_decision");
    }
    if (facts.scheduledRun()) {
      reasons.add("scheduled_run");
    }
    if (facts.recordReference() != null) {
      reasons.add("session_referenced");
    }
    return reasons;
  }

  private static String detail(TaskFacts facts) {
    List<String> parts = new ArrayList<>();
    if (facts.queued() > 0) {
      parts.add(facts.queued() + (facts.queued() == 1 ? " message" : " messages") + " queued");
    }
    if (facts.liveTurn()) {
      parts.add("a turn is running or lingering");
    }
    if (facts.pendingDecision()) {
      parts.add("a decision is pending");
    }
    if (facts.scheduledRun()) {
      parts.add("a schedule run is in flight");
    }
    if (facts.recordReference() != null) {
      parts.add("record " + facts.recordReference() + " still refers to it");
    }
    return String.join("; ", parts);
  }

  private static PrunedTask view(TaskFacts facts) {
    return new PrunedTask(
        facts.task(), facts.projectId(), facts.title(), facts.status().wireName(), facts.lastActivity(),
        facts.events(), facts.bytes(), facts.firstSeq(), facts.lastSeq());
  }

  private static PruneResult result(
      boolean dryRun, int days, Instant idleBefore, List<PrunedTask> tasks, List<KeptTask> kept, Compaction compaction) {
    long events = tasks.stream().mapToLong(PrunedTask::events).sum();
    long bytes = tasks.stream().mapToLong(PrunedTask::bytes).sum();
    return new PruneResult(
        dryRun, days, idleBefore, tasks, events, bytes, kept, compaction, compaction == null ? 0 : compaction.bytesFreed());
  }
}
