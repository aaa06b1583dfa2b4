package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.api.ScheduleApi.SchedulerStatus;
import dev.roundhouse.hub.bench.BenchClock;
import dev.roundhouse.hub.bench.SchedulerBenchHub;
import dev.roundhouse.hub.bench.SchedulerBenchHub.TickTime;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The scheduler with many active schedules, in throwaway in-process hubs whose turns end at once: the cost of a
 * tick when nothing is due (against the same with no schedules), the heap they take, and the lag from a due
 * minute to each turn's start when many come due together (against the lag of an idle hub's own timer). See
 * docs/performance.md ("Scheduler") for what each figure is.
 *
 * <p>Time: each hub runs on a {@link BenchClock}. The measured hub's scheduler timer is off and the benchmark
 * ticks it; its clock stands still while the schedules are created and the idle ticks run (so nothing comes
 * due by accident), and for a firing it is set to read the due minute and runs on at real speed, so turn
 * starts are stamped with real delays after the due time. The idle hub's scheduler runs on its own timer.
 *
 * <p>Not thread-safe; one run at a time.
 */
final class SchedulerBenchmark {
  /** The day the schedules fire on: a Monday in January, far from every DST change of {@link #ZONES}. */
  static final Instant DAY = Instant.parse("2030-01-07T00:00:00Z");

  private static final List<String> ZONES = List.of("UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata");
  private static final int PROJECTS = 4;
  private static final int CREATORS = 8;
  private static final int WARMUP_TICKS = 1_000;
  /** How long before its firing an idle sample's schedule is created (its timer then waits for the firing). */
  private static final Duration LEAD = Duration.ofSeconds(1);
  private static final Duration WAIT = Duration.ofMinutes(5);

  /** Percentiles of a sample, in milliseconds. */
  record Spread(int count, double p50Millis, double p99Millis, double maxMillis) {
    static Spread of(long[] nanos) {
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      return new Spread(sorted.length, percentile(sorted, 0.50) / 1e6, percentile(sorted, 0.99) / 1e6, percentile(sorted, 1.0) / 1e6);
    }
  }

  /**
   * The figures of one run.
   *
   * @param idleTickStart when the idle hub's timer tick began, after the due time
   * @param idleLag the idle hub: due time to {@code turn.started} (the baseline)
   * @param singleLag the measured hub, one firing in its minute, ticked by the benchmark at the due time
   * @param dueClaimed due time to each firing's claim ({@code schedule.fired})
   * @param dueLag due time to each firing's {@code turn.started}
   * @param duePublished due time to each {@code turn.started} being committed and published
   */
  record Figures(
      int schedules, int due, int projects, double loadAverageBefore, double loadAverageAfter, double createSeconds,
      Spread emptyTick, Spread fullTick, double tickRatioP50, double tickRatioP99,
      double heapEmptyMegabytes, double heapFullMegabytes, double databaseMegabytes,
      Spread idleTickStart, Spread idleLag, Spread singleLag, double firingTickStartMillis, double firingTickMillis,
      Spread dueClaimed, Spread dueLag, Spread duePublished, double lagRatioP50, double lagRatioP99,
      int dueFired, int dueLaunched, int dueStartedOnce, int dueStartedTwice, int dueEnded, double followTickMillis) {}

  private final Path scratch;
  private final int schedules;
  private final int due;
  private final int ticks;
  private final int idleSamples;
  private final InstantDriver driver = new InstantDriver();

  /**
   * @param schedules active schedules in the measured hub (one fires alone in the first minute, {@code due} in the
   *     second, the rest spread over the day's other minutes)
   * @param ticks ticks measured with nothing due, after {@value #WARMUP_TICKS} that are not
   * @param idleSamples firings of the idle hub's timer measured, after one that is not
   */
  SchedulerBenchmark(Path scratch, int schedules, int due, int ticks, int idleSamples) {
    if (due < 1 || schedules < due + 1) {
      throw new IllegalArgumentException("need at least one due firing and one schedule more than are due");
    }
    this.scratch = scratch;
    this.schedules = schedules;
    this.due = due;
    this.ticks = ticks;
    this.idleSamples = idleSamples;
  }

  /** Runs the benchmark; {@code out} gets the figures as text as they come (nothing when null). */
  Figures run(PrintWriter out) throws Exception {
    PrintWriter text = out == null ? new PrintWriter(java.io.Writer.nullWriter()) : out;
    double loadBefore = loadAverage();
    text.printf(Locale.ROOT, "roundhouse bench scheduler: %d active schedules in %d projects (cron and RRULE, %d zones), %d due"
        + " in the same minute; load average %.2f on %d cores%n", schedules, PROJECTS, ZONES.size(), due, loadBefore,
        Runtime.getRuntime().availableProcessors());
    text.flush();

    Idle idle = idle(Files.createDirectories(scratch.resolve("idle")));
    Spread idleStart = Spread.of(idle.tickStart());
    Spread idleLag = Spread.of(idle.lag());
    text.printf(Locale.ROOT, "baseline, an idle hub on its own timer (%d firings, one schedule due at a time): tick began after due"
        + " p50 %.2f ms, max %.2f ms; due -> turn.started p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
        idleLag.count(), idleStart.p50Millis(), idleStart.maxMillis(), idleLag.p50Millis(), idleLag.p99Millis(), idleLag.maxMillis());
    text.flush();

    Path home = Files.createDirectories(scratch.resolve("hub"));
    BenchClock clock = new BenchClock(DAY);
    try (SchedulerBenchHub bench = SchedulerBenchHub.open(home, List.of(driver), clock, false)) {
      Hub hub = bench.hub();
      Recorder events = new Recorder();
      hub.events().observe(events);
      for (int p = 0; p < PROJECTS; p++) {
        project(hub, "p" + p, home);
      }
      double heapEmpty = heapAfterGc() / 1048576.0;
      Spread emptyTick = tickCost(bench);

      long createStart = System.nanoTime();
      create(hub);
      double createSeconds = (System.nanoTime() - createStart) / 1e9;
      SchedulerStatus status = bench.status();
      if (status.activeSchedules() != schedules || !DAY.plus(Duration.ofMinutes(1)).equals(status.nextFiring())) {
        throw new IllegalStateException("expected " + schedules + " active schedules, the first firing at " + DAY.plus(Duration.ofMinutes(1))
            + "; the scheduler says " + status);
      }
      text.printf(Locale.ROOT, "created %d schedules with schedule_create (%d callers at once) in %.1f s: %.0f/s%n",
          schedules, CREATORS, createSeconds, schedules / createSeconds);
      text.flush();
      double heapFull = heapAfterGc() / 1048576.0;
      double database = databaseBytes(home) / 1048576.0;
      Spread fullTick = tickCost(bench);
      text.printf(Locale.ROOT, "tick, nothing due (%d ticks): 0 schedules p50 %.3f ms, p99 %.3f ms; %d schedules p50 %.3f ms,"
          + " p99 %.3f ms; ratio %.2fx (p50), %.2fx (p99)%n", ticks, emptyTick.p50Millis(), emptyTick.p99Millis(), schedules,
          fullTick.p50Millis(), fullTick.p99Millis(), fullTick.p50Millis() / emptyTick.p50Millis(), fullTick.p99Millis() / emptyTick.p99Millis());
      text.printf(Locale.ROOT, "heap after GC: 0 schedules %.1f MB, %d schedules %.1f MB: %+.1f MB; database file %.1f MB%n",
          heapEmpty, schedules, heapFull, heapFull - heapEmpty, database);
      text.flush();

      // One firing alone in its minute, ticked at once: the same path as the 1,000 without the crowd.
      Instant single = DAY.plus(Duration.ofMinutes(1));
      Firing one = fire(bench, clock, events, single, 1);
      long[] singleLag = one.tasks().stream().mapToLong(task -> between(single, events.started(task).getFirst().at())).toArray();
      Spread singleSpread = Spread.of(singleLag);
      text.printf(Locale.ROOT, "1 firing in its minute, the benchmark's tick at the due time: due -> turn.started %.2f ms%n",
          singleSpread.p50Millis());
      text.flush();

      Instant minute = DAY.plus(Duration.ofMinutes(2));
      Firing crowd = fire(bench, clock, events, minute, due);
      List<Long> tasks = crowd.tasks();
      long[] claimed = new long[tasks.size()];
      long[] lag = new long[tasks.size()];
      long[] published = new long[tasks.size()];
      int once = 0;
      int twice = 0;
      long dueNanos = clock.nanosAt(minute);
      for (int i = 0; i < tasks.size(); i++) {
        List<Recorder.Started> starts = events.started(tasks.get(i));
        once += starts.size() == 1 ? 1 : 0;
        twice += starts.size() > 1 ? 1 : 0;
        claimed[i] = between(minute, events.firedAt(tasks.get(i)));
        lag[i] = between(minute, starts.getFirst().at());
        published[i] = starts.getFirst().publishedNanos() - dueNanos;
      }
      Spread claimedSpread = Spread.of(claimed);
      Spread lagSpread = Spread.of(lag);
      Spread publishedSpread = Spread.of(published);
      double tickStart = (crowd.tick().startedNanos() - dueNanos) / 1e6;
      text.printf(Locale.ROOT, "%d firings due in the same minute, one tick (began %.3f ms after due): %.1f ms, fired %d, launched %d%n",
          due, tickStart, crowd.tick().nanos() / 1e6, crowd.tick().fired(), crowd.tick().launched());
      text.printf(Locale.ROOT, "  due -> claimed (schedule.fired): p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
          claimedSpread.p50Millis(), claimedSpread.p99Millis(), claimedSpread.maxMillis());
      text.printf(Locale.ROOT, "  due -> turn.started: p50 %.1f ms, p99 %.1f ms, max %.1f ms (committed and published: p50 %.1f ms,"
          + " p99 %.1f ms, max %.1f ms)%n", lagSpread.p50Millis(), lagSpread.p99Millis(), lagSpread.maxMillis(),
          publishedSpread.p50Millis(), publishedSpread.p99Millis(), publishedSpread.maxMillis());
      double ratioP50 = lagSpread.p50Millis() / idleLag.p50Millis();
      double ratioP99 = lagSpread.p99Millis() / idleLag.p99Millis();
      text.printf(Locale.ROOT, "ratio lag / idle hub's lag: %.1fx (p50), %.1fx (p99)%n", ratioP50, ratioP99);
      text.flush();

      await("the " + due + " turns to end", () -> tasks.stream().allMatch(events::ended));
      TickTime follow = bench.tick(clock.instant());
      // A turn that ended while its own tick still ran was ended by that tick; the next tick ends the rest.
      int ended = crowd.tick().ended() + follow.ended();
      hub.events().unobserve(events);
      text.printf(Locale.ROOT, "every due firing started exactly once: %d of %d (%d started more than once); %d runs ended"
          + " (%d by the firing tick, %d by the next one, in %.1f ms)%n", once, due, twice, ended, crowd.tick().ended(),
          follow.ended(), follow.nanos() / 1e6);
      double loadAfter = loadAverage();
      text.printf(Locale.ROOT, "load average after: %.2f%n", loadAfter);
      text.flush();
      return new Figures(schedules, due, PROJECTS, loadBefore, loadAfter, createSeconds, emptyTick, fullTick,
          fullTick.p50Millis() / emptyTick.p50Millis(), fullTick.p99Millis() / emptyTick.p99Millis(), heapEmpty, heapFull, database,
          idleStart, idleLag, singleSpread, tickStart, crowd.tick().nanos() / 1e6, claimedSpread, lagSpread, publishedSpread,
          ratioP50, ratioP99, crowd.tick().fired(), crowd.tick().launched(), once, twice, ended, follow.nanos() / 1e6);
    }
  }

  // ---- the idle hub's own timer ---------------------------------------------------------------

  private record Idle(long[] tickStart, long[] lag) {}

  /**
   * An idle hub whose scheduler runs on its own timer: each sample creates one schedule {@link #LEAD} before its
   * firing and measures when the timer's tick began and when the turn started, after the due time.
   */
  private Idle idle(Path home) {
    BenchClock clock = new BenchClock(DAY);
    try (SchedulerBenchHub bench = SchedulerBenchHub.open(home, List.of(driver), clock, true)) {
      Hub hub = bench.hub();
      Recorder events = new Recorder();
      hub.events().observe(events);
      project(hub, "idle", home);
      long[] tickStart = new long[idleSamples];
      long[] lag = new long[idleSamples];
      for (int i = -1; i < idleSamples; i++) { // the first firing warms the path up and is not counted
        Instant at = DAY.plus(Duration.ofHours(10)).plus(Duration.ofMinutes(i + 2L));
        int before = events.fired().size();
        clock.runFrom(at.minus(LEAD));
        ZonedDateTime local = at.atZone(ZoneId.of("UTC"));
        invoke(hub, "schedule_create", Map.of("project", "idle", "name", "idle " + (i + 1), "prompt", "the idle hub's firing",
            "recurrence", local.getMinute() + " " + local.getHour() + " * * *", "zone", "UTC"));
        await("the idle hub's firing at " + at, () -> events.fired().size() > before);
        long task = events.fired().get(before);
        await("the idle hub's turn of task " + task, () -> !events.started(task).isEmpty());
        // The tick records its start once it has launched the turn: wait for it (a tick that began before the due
        // time, as a timer that wakes a little early does, fires nothing; the one after it fires).
        await("the idle hub's tick to finish", () -> {
          Instant last = bench.status().lastTick();
          return last != null && !last.isBefore(at);
        });
        Instant lastTick = bench.status().lastTick();
        if (i >= 0) {
          tickStart[i] = between(at, lastTick);
          lag[i] = between(at, events.started(task).getFirst().at());
        }
      }
      hub.events().unobserve(events);
      return new Idle(tickStart, lag);
    }
  }

  // ---- the measured hub -----------------------------------------------------------------------

  private Spread tickCost(SchedulerBenchHub bench) {
    Instant now = DAY.plusSeconds(30); // before every firing
    for (int i = 0; i < WARMUP_TICKS; i++) {
      bench.tick(now);
    }
    long[] nanos = new long[ticks];
    for (int i = 0; i < ticks; i++) {
      TickTime tick = bench.tick(now);
      if (tick.fired() + tick.skipped() + tick.launched() + tick.ended() != 0) {
        throw new IllegalStateException("a tick with nothing due did something: " + tick);
      }
      nanos[i] = tick.nanos();
    }
    return Spread.of(nanos);
  }

  /**
   * Creates the schedules through {@code schedule_create}, {@value #CREATORS} callers at once, while the clock
   * stands at {@link #DAY}: schedule 0 fires at 00:01, the next {@code due} at 00:02, the rest at the day's other
   * minutes (00:03 to 24:00), daily; every other one cron, the rest RRULE; in five zones.
   */
  private void create(Hub hub) throws Exception {
    try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> done = new ArrayList<>();
      for (int caller = 0; caller < CREATORS; caller++) {
        int first = caller;
        done.add(callers.submit(() -> {
          for (int i = first; i < schedules; i += CREATORS) {
            invoke(hub, "schedule_create", schedule(i));
          }
          return null;
        }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    }
  }

  private Map<String, Object> schedule(int i) {
    int minute = i == 0 ? 1 : i <= due ? 2 : 3 + (i - due - 1) % (24 * 60 - 2);
    ZoneId zone = ZoneId.of(ZONES.get(i % ZONES.size()));
    ZonedDateTime local = DAY.plus(Duration.ofMinutes(minute)).atZone(zone);
    String recurrence = i % 2 == 0
        ? local.getMinute() + " " + local.getHour() + " * * *"
        : "FREQ=DAILY;BYHOUR=" + local.getHour() + ";BYMINUTE=" + local.getMinute();
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("project", "p" + i % PROJECTS);
    input.put("name", "schedule " + i);
    input.put("prompt", "scheduled work " + i);
    input.put("recurrence", recurrence);
    input.put("zone", zone.getId());
    return input;
  }

  /** What one firing tick did, and the tasks it minted (in claim order). */
  private record Firing(TickTime tick, List<Long> tasks) {}

  /**
   * Sets the clock to read {@code at} and run on, ticks at once, waits until each of the {@code expected} firings'
   * turns has started, and (for a single firing) follows its end with one more tick.
   */
  private Firing fire(SchedulerBenchHub bench, BenchClock clock, Recorder events, Instant at, int expected) {
    int before = events.fired().size();
    clock.runFrom(at);
    TickTime tick = bench.tick(clock.instant());
    if (tick.fired() != expected) {
      throw new IllegalStateException("the tick at " + at + " fired " + tick.fired() + ", not " + expected + ": " + tick);
    }
    await(expected + " schedule.fired events", () -> events.fired().size() >= before + expected);
    List<Long> tasks = List.copyOf(events.fired().subList(before, before + expected));
    await("the turns of " + expected + " firings to start", () -> tasks.stream().noneMatch(task -> events.started(task).isEmpty()));
    if (expected == 1) {
      await("the single firing's turn to end", () -> events.ended(tasks.getFirst()));
      TickTime follow = bench.tick(clock.instant());
      if (tick.ended() + follow.ended() != 1) {
        throw new IllegalStateException("the firing's tick and the next ended " + (tick.ended() + follow.ended()) + " runs, not 1");
      }
    }
    return new Firing(tick, tasks);
  }

  // ---- helpers --------------------------------------------------------------------------------

  private void project(Hub hub, String name, Path home) {
    try {
      Path folder = Files.createDirectories(home.resolve("projects").resolve(name));
      invoke(hub, "project_create", Map.of("name", name, "path", folder.toString(), "default_agent", driver.id()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static JsonNode invoke(Hub hub, String op, Map<String, Object> input) {
    return hub.operations().invoke(op, Actor.USER, Json.tree(input));
  }

  private static long between(Instant from, Instant to) {
    return Duration.between(from, to).toNanos();
  }

  private static void await(String what, BooleanSupplier done) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out after " + WAIT.toMinutes() + " min waiting for " + what);
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + what, e);
      }
    }
  }

  /** The heap in use after a few full collections, in bytes. */
  private static long heapAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(100);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  /** The database and its WAL. */
  private static long databaseBytes(Path home) throws IOException {
    long bytes = 0;
    try (var files = Files.list(home)) {
      for (Path file : files.filter(f -> f.getFileName().toString().startsWith("roundhouse.db")).toList()) {
        bytes += Files.size(file);
      }
    }
    return bytes;
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static double percentile(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1))];
  }

  /** What the event stream said, per task. Thread-safe: the event bus's publisher writes, the benchmark reads. */
  private static final class Recorder implements Consumer<List<Event>> {
    record Started(Instant at, long publishedNanos) {}

    private final List<Long> fired = new CopyOnWriteArrayList<>();
    private final Map<Long, Instant> firedAt = new ConcurrentHashMap<>();
    private final Map<Long, List<Started>> started = new ConcurrentHashMap<>();
    private final Set<Long> ended = ConcurrentHashMap.newKeySet();

    @Override
    public void accept(List<Event> events) {
      long now = System.nanoTime();
      for (Event event : events) {
        if (event.taskId() == null) {
          continue;
        }
        switch (event.type()) {
          case "schedule.fired" -> {
            firedAt.put(event.taskId(), event.at());
            fired.add(event.taskId());
          }
          case "turn.started" -> started.computeIfAbsent(event.taskId(), t -> new CopyOnWriteArrayList<>())
              .add(new Started(event.at(), now));
          case "turn.ended" -> ended.add(event.taskId());
          default -> {
            // not measured
          }
        }
      }
    }

    /** The tasks the firings minted, in the order they were claimed. */
    List<Long> fired() {
      return fired;
    }

    Instant firedAt(long task) {
      return firedAt.get(task);
    }

    List<Started> started(long task) {
      List<Started> starts = started.get(task);
      return starts == null ? List.of() : List.copyOf(starts);
    }

    boolean ended(long task) {
      return ended.contains(task);
    }
  }

  /** A driver whose turns end at once, so a firing costs the hub's work and nothing of an agent's. Thread-safe. */
  private static final class InstantDriver implements AgentDriver {
    @Override
    public String id() {
      return "instant";
    }

    @Override
    public DriverCapabilities capabilities() {
      return new DriverCapabilities("Instant (benchmark)", List.of(), List.of(), false, false, false, false, Set.of());
    }

    @Override
    public void run(TurnRequest request, TurnContext context) {
      // the turn ends as soon as it starts
    }
  }
}
