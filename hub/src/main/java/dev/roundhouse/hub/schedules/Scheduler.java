package dev.roundhouse.hub.schedules;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.api.ScheduleApi.SchedulerStatus;
import dev.roundhouse.hub.api.BoardApi.TaskUpdate;
import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.RunOutcome;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.ScheduleRun;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreWriter;
import dev.roundhouse.hub.turns.RunOutcomes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires due schedules and follows their runs. One {@link #tick} does four things, each restart-safe:
 * <ol>
 *   <li><b>claim</b> every due firing (in batches, one transaction each): a run row keyed by (schedule, scheduled
 *       time) is inserted unless one exists, and the task it runs is minted in the same transaction, so no
 *       restart, clock jump or second worker can fire a firing twice; missed firings follow the schedule's missed
 *       policy, a firing while the previous run goes follows its overlap policy;
 *   <li><b>follow</b> running runs: an ended turn ends its run with the turn's {@link RunOutcome};
 *   <li><b>promote</b> a queued run once its schedule has no run going;
 *   <li><b>launch</b> pending runs: the turn starts unattended, and the run is marked running in the transaction
 *       that records the turn, so a run that was claimed before a crash starts exactly once after it.
 * </ol>
 *
 * <p>Thread-safe. Ticks run on one daemon thread of its own once {@link #open()}ed (at the next firing, at most
 * every {@link SchedulerSettings#tick()}, and at once after {@link #wake()}); tests call {@link #tick} directly
 * with their own clock. Concurrent ticks are safe (the keys and the launch check make them so), only wasteful.
 * {@code lock} guards the timer, never a tick.
 */
public final class Scheduler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Scheduler.class);
  private static final int BATCH = 100;

  private final Store store;
  private final Board board;
  private final RunLauncher launcher;
  private final Clock clock;
  private final SchedulerSettings settings;
  private final Instant createdAt;
  private final ReentrantLock lock = Locks.tracked("scheduler");
  private final ParsedRecurrences recurrences;

  @GuardedBy("lock")
  private ScheduledExecutorService timer;

  @GuardedBy("lock")
  private ScheduledFuture<?> pending;

  private final java.util.concurrent.atomic.AtomicBoolean woken = new java.util.concurrent.atomic.AtomicBoolean();
  private volatile Instant lastTick;
  private volatile long lastTickMillis;

  Scheduler(Store store, Board board, RunLauncher launcher, Clock clock, SchedulerSettings settings, ParsedRecurrences recurrences) {
    this.recurrences = recurrences;
    this.store = store;
    this.board = board;
    this.launcher = launcher;
    this.clock = clock;
    this.settings = settings;
    this.createdAt = clock.instant();
  }

  /** What one tick did, for tests and the benchmark. */
  public record Tick(int fired, int skipped, int queued, int launched, int ended) {}

  /** Starts ticking on a thread of its own, unless switched off by configuration. */
  public void open() {
    if (!settings.enabled()) {
      log.info("the scheduler is switched off (ROUNDHOUSE_SCHEDULER=off): schedules will not fire");
      return;
    }
    lock.lock();
    try {
      if (timer == null) {
        timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("roundhouse-scheduler").daemon(true).factory());
        pending = timer.schedule(this::tickQuietly, 0, TimeUnit.MILLISECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Ticks at once (a schedule changed); a no-op when not ticking. */
  public void wake() {
    woken.set(true);
    reschedule(0);
  }

  /** One pass at {@code now}: claims due firings, follows running runs, promotes queued ones, launches pending ones. */
  public Tick tick(Instant now) {
    long started = System.nanoTime();
    Counts counts = new Counts();
    claimDue(now, counts);
    follow(counts);
    promote(now, counts);
    launch(counts);
    lastTick = now;
    lastTickMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    return new Tick(counts.fired, counts.skipped, counts.queued, counts.launched, counts.ended);
  }

  /** The scheduler's health: last tick, lag, next firing, and whether it looks stuck. */
  public SchedulerStatus status() {
    Instant now = clock.instant();
    Optional<Instant> next = store.read(r -> r.schedules().earliestDue());
    int active = store.read(r -> r.schedules().activeSchedules());
    int open = store.read(r -> r.schedules().openRuns().size());
    long lag = next.filter(at -> at.isBefore(now)).map(at -> Duration.between(at, now).toMillis()).orElse(0L);
    Instant last = lastTick;
    String reason = null;
    if (settings.enabled()) {
      Duration allowed = settings.tick().multipliedBy(3).plusMillis(lastTickMillis);
      if (last == null && Duration.between(createdAt, now).compareTo(allowed) > 0) {
        reason = "no tick since the hub started " + Duration.between(createdAt, now).toSeconds() + " s ago";
      } else if (last != null && Duration.between(last, now).compareTo(allowed) > 0) {
        reason = "the last tick was " + Duration.between(last, now).toSeconds() + " s ago (expected every "
            + settings.tick().toSeconds() + " s)";
      } else if (lag > settings.grace().toMillis()) {
        reason = "a firing has been due for " + lag / 1000 + " s, longer than the grace of " + settings.grace().toSeconds() + " s";
      }
    }
    return new SchedulerStatus(settings.enabled(), last, lastTickMillis, lag, next.orElse(null), active, open, reason != null, reason);
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (timer != null) {
        timer.shutdownNow();
        timer = null;
      }
    } finally {
      lock.unlock();
    }
  }

  // ---- the tick's steps ---------------------------------------------------------------------

  private static final class Counts {
    int fired;
    int skipped;
    int queued;
    int launched;
    int ended;
  }

  private void claimDue(Instant now, Counts counts) {
    Instant graceEdge = now.minus(settings.grace());
    while (true) {
      List<Schedule> due = store.read(r -> r.schedules().due(now, BATCH));
      if (due.isEmpty()) {
        return;
      }
      int firedBefore = counts.fired;
      store.write(w -> {
        for (Schedule schedule : due) {
          claim(w, schedule, now, graceEdge, counts);
        }
        return null;
      });
      if (counts.fired > firedBefore) {
        launch(counts); // this batch's turns start now, not after every due schedule has been claimed
      }
    }
  }

  /** Claims the due firings of one schedule and moves its next firing past {@code now}; inside {@code w}. */
  private void claim(StoreWriter w, Schedule stale, Instant now, Instant graceEdge, Counts counts) {
    Schedule schedule = w.schedules().schedule(stale.id()).orElse(null);
    if (schedule == null || schedule.paused() || schedule.nextAt() == null || schedule.nextAt().isAfter(now)) {
      return; // changed since it was read: another tick or an update got there first
    }
    Recurrence recurrence;
    try {
      recurrence = recurrences.of(schedule);
    } catch (RuntimeException e) {
      log.warn("schedule {} ({}) cannot be evaluated any more and stops: {}", schedule.id(), schedule.name(), e.getMessage());
      w.schedules().setNextAt(schedule.id(), null);
      return;
    }
    DueFirings firings = DueFirings.of(schedule, recurrence, now, graceEdge);
    ZoneId zone = ZoneId.of(schedule.zone());
    if (firings.missedKey() != null) {
      String missed = firings.missedText(zone);
      switch (schedule.missed()) {
        case SKIP -> record(w, schedule, skipped(schedule, firings.missedKey(), now, missed + "; skipped by the missed policy"), counts);
        case RUN_ONCE -> fire(w, schedule, firings.missedKey(), now, missed + "; run once for them by the missed policy", counts);
      }
    }
    for (Instant at : firings.onTime()) {
      fire(w, schedule, at, now, null, counts);
    }
    w.schedules().setNextAt(schedule.id(), firings.next());
  }

  /** Claims one firing that is to run: now, behind the previous run, or skipped, as the overlap policy says. */
  private void fire(StoreWriter w, Schedule schedule, Instant at, Instant now, String note, Counts counts) {
    List<ScheduleRun> open = w.schedules().openRuns(schedule.id());
    if (!open.isEmpty()) {
      switch (schedule.overlap()) {
        case SKIP -> {
          String previous = open.getFirst().taskId() == null ? "" : " (task " + open.getFirst().taskId() + ")";
          record(w, schedule, skipped(schedule, at, now, join(note, "the previous run" + previous + " was still going; skipped by the overlap policy")), counts);
          return;
        }
        case QUEUE -> {
          ScheduleRun queued = new ScheduleRun(schedule.id(), at, ScheduleRun.QUEUED, null, null,
              join(note, "waits for the previous run to end"), now, null);
          if (w.schedules().claim(queued)) {
            counts.queued++;
            w.append(new ScheduleEvent.Fired(queued, schedule.name()).draft(Actor.SCHEDULER, schedule.projectId(), null));
          }
          return;
        }
        case ALLOW -> {
          // runs beside the previous one
        }
      }
    }
    ScheduleRun claimed = new ScheduleRun(schedule.id(), at, ScheduleRun.PENDING, null, null, note, now, null);
    if (!w.schedules().claim(claimed)) {
      return; // fired before: by an earlier tick, before a restart, or by another worker
    }
    Task task = mint(w, schedule, at);
    ScheduleRun minted = new ScheduleRun(schedule.id(), at, ScheduleRun.PENDING, task.id(), null, note, now, null);
    w.schedules().updateRun(minted);
    counts.fired++;
    w.append(new ScheduleEvent.Fired(minted, schedule.name()).draft(Actor.SCHEDULER, schedule.projectId(), task.id()));
  }

  private Task mint(StoreWriter w, Schedule schedule, Instant at) {
    ZoneId zone = ZoneId.of(schedule.zone());
    String title = schedule.name() + " · " + DueFirings.local(at, zone);
    String description = "Run by schedule '" + schedule.name() + "' (" + schedule.id() + ") for its firing due "
        + DueFirings.local(at, zone) + " " + zone.getId() + ".";
    return launcher.mint(w, Actor.SCHEDULER, spec(w, schedule), title, description);
  }

  private static RunSpec spec(dev.roundhouse.hub.store.StoreReader r, Schedule schedule) {
    return schedule.runbookId() == null
        ? RunSpec.of(schedule)
        : RunSpec.of(r.schedules().runbook(schedule.runbookId()).orElseThrow(() ->
            new IllegalStateException("schedule " + schedule.id() + " names runbook " + schedule.runbookId() + ", which is gone")));
  }

  private static ScheduleRun skipped(Schedule schedule, Instant at, Instant now, String reason) {
    return new ScheduleRun(schedule.id(), at, ScheduleRun.SKIPPED, null, null, reason, now, now);
  }

  private static void record(StoreWriter w, Schedule schedule, ScheduleRun run, Counts counts) {
    if (w.schedules().claim(run)) {
      counts.skipped++;
      w.append(new ScheduleEvent.Fired(run, schedule.name()).draft(Actor.SCHEDULER, schedule.projectId(), null));
    }
  }

  private static String join(String first, String second) {
    return first == null ? second : first + "; " + second;
  }

  /**
   * Ends the runs whose turn has ended, with the turn's outcome; a done run's task moves to done. One read finds
   * them, so a tick while many runs go writes nothing for them; each ended run is then ended in a write of its own
   * on a virtual thread of its own, as {@link #launch} does, so those writes share commits instead of waiting for
   * one each in turn.
   */
  private void follow(Counts counts) {
    List<ScheduleRun> ended = store.read(r -> r.schedules().openRuns().stream()
        .filter(run -> run.status().equals(ScheduleRun.RUNNING) && run.turnId() != null)
        .filter(run -> r.runner().turn(run.turnId()).map(turn -> !turn.active()).orElse(true))
        .toList());
    if (ended.isEmpty()) {
      return;
    }
    java.util.concurrent.atomic.AtomicInteger endedRuns = new java.util.concurrent.atomic.AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (ScheduleRun run : ended) {
      threads.add(Thread.ofVirtual().name("roundhouse-scheduled-run-end").start(() -> {
        try {
          Optional<Ended> outcome = store.write(w -> end(w, run));
          if (outcome.isPresent()) {
            endedRuns.incrementAndGet();
            if (outcome.get().outcome() == RunOutcome.DONE && run.taskId() != null) {
              moveToDone(run);
            }
          }
        } catch (RuntimeException e) {
          log.warn("could not end the scheduled run of schedule {} due {}; the next tick retries", run.scheduleId(), run.scheduledAt(), e);
        }
      }));
    }
    join(threads);
    counts.ended += endedRuns.get();
  }

  private static void join(List<Thread> threads) {
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private record Ended(RunOutcome outcome) {}

  private Optional<Ended> end(StoreWriter w, ScheduleRun stale) {
    ScheduleRun run = w.schedules().run(stale.scheduleId(), stale.scheduledAt()).orElse(null);
    if (run == null || !run.status().equals(ScheduleRun.RUNNING)) {
      return Optional.empty();
    }
    Turn turn = w.runner().turn(run.turnId()).orElse(null);
    // judge, not classify: a denied run's reason is its first denial, which the turn's end reason does not say
    RunOutcomes.Verdict verdict = turn == null ? null : RunOutcomes.judge(w, turn.id());
    RunOutcome outcome = verdict == null ? RunOutcome.FAILED : verdict.outcome();
    if (!outcome.ended()) {
      return Optional.empty();
    }
    String reason = verdict == null ? "the run's turn is gone (its task was deleted)" : verdict.reason();
    ScheduleRun ended = new ScheduleRun(run.scheduleId(), run.scheduledAt(), outcome.wireName(), run.taskId(), run.turnId(),
        join(run.reason(), reason), run.firedAt(), turn != null && turn.endedAt() != null ? turn.endedAt() : w.now());
    w.schedules().updateRun(ended);
    String name = w.schedules().schedule(run.scheduleId()).map(Schedule::name).orElse("?");
    Long project = w.schedules().schedule(run.scheduleId()).map(Schedule::projectId).orElse(null);
    w.append(new ScheduleEvent.RunEnded(ended, name).draft(Actor.SCHEDULER, project, run.taskId()));
    return Optional.of(new Ended(outcome));
  }

  private void moveToDone(ScheduleRun run) {
    try {
      board.updateTask(Actor.SCHEDULER, new TaskUpdate(run.taskId(), null, null, TaskStatus.DONE, null, null, null,
          null, null, null, null, null, null));
    } catch (RoundhouseException e) {
      // A module may veto done (unmerged work in the task's worktree): the task stays for a person to land.
      log.info("scheduled run's task {} stays where it is: {}", run.taskId(), e.getMessage());
    }
  }

  /** Mints the task of each schedule's oldest queued run once that schedule has no run going. */
  private void promote(Instant now, Counts counts) {
    Map<Long, ScheduleRun> oldestQueued = new LinkedHashMap<>();
    java.util.Set<Long> going = new java.util.HashSet<>();
    for (ScheduleRun run : store.read(r -> r.schedules().openRuns())) {
      if (run.status().equals(ScheduleRun.QUEUED)) {
        oldestQueued.putIfAbsent(run.scheduleId(), run);
      } else {
        going.add(run.scheduleId());
      }
    }
    oldestQueued.keySet().removeAll(going); // their turn has not come: no write for them
    for (ScheduleRun queued : oldestQueued.values()) {
      store.write(w -> {
        List<ScheduleRun> open = w.schedules().openRuns(queued.scheduleId());
        boolean stillGoing = open.stream().anyMatch(run -> !run.status().equals(ScheduleRun.QUEUED));
        ScheduleRun run = w.schedules().run(queued.scheduleId(), queued.scheduledAt()).orElse(null);
        Schedule schedule = w.schedules().schedule(queued.scheduleId()).orElse(null);
        if (stillGoing || run == null || schedule == null || !run.status().equals(ScheduleRun.QUEUED)) {
          return null;
        }
        Task task = mint(w, schedule, run.scheduledAt());
        ScheduleRun promoted = new ScheduleRun(run.scheduleId(), run.scheduledAt(), ScheduleRun.PENDING, task.id(), null,
            join(run.reason(), "started " + DueFirings.local(now, ZoneId.of(schedule.zone())) + " after the previous run ended"),
            run.firedAt(), null);
        w.schedules().updateRun(promoted);
        w.append(new ScheduleEvent.Fired(promoted, schedule.name()).draft(Actor.SCHEDULER, schedule.projectId(), task.id()));
        counts.fired++;
        return null;
      });
    }
  }

  /** Starts the turn of every pending run, each on a virtual thread of its own (their writes share commits). */
  private void launch(Counts counts) {
    List<ScheduleRun> pendingRuns = store.read(r -> r.schedules().openRuns()).stream()
        .filter(run -> run.status().equals(ScheduleRun.PENDING) && run.taskId() != null)
        .toList();
    if (pendingRuns.isEmpty()) {
      return;
    }
    List<Thread> threads = new ArrayList<>();
    java.util.concurrent.atomic.AtomicInteger launched = new java.util.concurrent.atomic.AtomicInteger();
    for (ScheduleRun run : pendingRuns) {
      threads.add(Thread.ofVirtual().name("roundhouse-scheduled-run").start(() -> {
        if (launchOne(run)) {
          launched.incrementAndGet();
        }
      }));
    }
    join(threads);
    counts.launched += launched.get();
  }

  /** A launch that lost the race to another tick: nothing to do. */
  private static final class AlreadyLaunched extends RuntimeException {
    AlreadyLaunched() {
      super("already launched", null, false, false);
    }
  }

  private boolean launchOne(ScheduleRun run) {
    try {
      RunSpec spec = store.read(r -> r.schedules().schedule(run.scheduleId()).map(s -> spec(r, s))).orElse(null);
      if (spec == null) {
        return false; // the schedule was deleted, and its runs with it
      }
      launcher.start(Actor.SCHEDULER, run.taskId(), spec, true, (w, turn) -> {
        ScheduleRun current = w.schedules().run(run.scheduleId(), run.scheduledAt()).orElseThrow(AlreadyLaunched::new);
        if (!current.status().equals(ScheduleRun.PENDING)) {
          throw new AlreadyLaunched();
        }
        w.schedules().updateRun(new ScheduleRun(current.scheduleId(), current.scheduledAt(), ScheduleRun.RUNNING,
            current.taskId(), turn.id(), current.reason(), current.firedAt(), null));
      });
      return true;
    } catch (AlreadyLaunched e) {
      return false;
    } catch (RuntimeException e) {
      failLaunch(run, e);
      return false;
    }
  }

  /** A run whose turn could not start (unknown driver, task deleted): it ends failed, saying why. */
  private void failLaunch(ScheduleRun run, RuntimeException cause) {
    log.info("scheduled run of schedule {} due {} could not start: {}", run.scheduleId(), run.scheduledAt(), cause.getMessage());
    store.write(w -> {
      ScheduleRun current = w.schedules().run(run.scheduleId(), run.scheduledAt()).orElse(null);
      if (current == null || !current.status().equals(ScheduleRun.PENDING)) {
        return null;
      }
      Optional<Turn> active = current.taskId() == null ? Optional.empty() : w.runner().activeTurn(current.taskId());
      if (active.isPresent()) {
        // someone started a turn on the run's task first: follow that one
        w.schedules().updateRun(new ScheduleRun(current.scheduleId(), current.scheduledAt(), ScheduleRun.RUNNING,
            current.taskId(), active.get().id(), current.reason(), current.firedAt(), null));
        return null;
      }
      ScheduleRun failed = new ScheduleRun(current.scheduleId(), current.scheduledAt(), RunOutcome.FAILED.wireName(),
          current.taskId(), null, join(current.reason(), "the turn could not start: " + cause.getMessage()),
          current.firedAt(), w.now());
      w.schedules().updateRun(failed);
      Schedule schedule = w.schedules().schedule(current.scheduleId()).orElse(null);
      w.append(new ScheduleEvent.RunEnded(failed, schedule == null ? "?" : schedule.name())
          .draft(Actor.SCHEDULER, schedule == null ? null : schedule.projectId(), current.taskId()));
      return null;
    });
  }

  // ---- the timer ----------------------------------------------------------------------------

  private void tickQuietly() {
    woken.set(false);
    boolean failed = false;
    try {
      tick(clock.instant());
    } catch (RuntimeException e) {
      failed = true;
      log.warn("a scheduler tick failed; the next one retries in {} s", settings.tick().toSeconds(), e);
    }
    Instant now = clock.instant();
    long delay = settings.tick().toMillis();
    try {
      Optional<Instant> next = store.read(r -> r.schedules().earliestDue());
      // After a failure the overdue firing is still due: wait a whole tick, not zero, so a persistent failure
      // does not spin (status() reports it as stuck meanwhile).
      if (next.isPresent() && !failed) {
        delay = Math.max(0, Math.min(delay, Duration.between(now, next.get()).toMillis()));
      }
    } catch (RuntimeException e) {
      log.warn("cannot read the next firing", e);
    }
    // A wake during this tick may have been read too early: tick again at once rather than lose it.
    reschedule(woken.get() ? 0 : delay);
  }

  private void reschedule(long delayMillis) {
    lock.lock();
    try {
      if (timer == null) {
        return;
      }
      if (pending != null) {
        pending.cancel(false);
      }
      pending = timer.schedule(this::tickQuietly, delayMillis, TimeUnit.MILLISECONDS);
    } finally {
      lock.unlock();
    }
  }
}
