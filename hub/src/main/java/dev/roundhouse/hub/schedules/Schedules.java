package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.api.ScheduleApi.Firing;
import dev.roundhouse.hub.api.ScheduleApi.Firings;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleCreate;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleDeleted;
import dev.roundhouse.hub.api.ScheduleApi.SchedulePreview;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleRef;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleRuns;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleRunsQuery;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleUpdate;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleView;
import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.RoundhouseException.Conflict;
import dev.roundhouse.hub.core.RoundhouseException.InvalidInput;
import dev.roundhouse.hub.model.MissedPolicy;
import dev.roundhouse.hub.model.OverlapPolicy;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreReader;
import dev.roundhouse.hub.store.StoreWriter;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The rules of schedules: a name unique in its project, a runbook or a prompt (not both), a recurrence that
 * parses in a known IANA zone. The next firing is computed when a schedule is created, changed or resumed;
 * firings that came due while it was paused are not run. Every change is recorded as an event and wakes the
 * scheduler.
 *
 * <p>Stateless apart from its collaborators; thread-safe.
 */
public final class Schedules {
  private static final int MAX_RECURRENCE = 1_000;
  private static final int MAX_PREVIEW = 500;
  private static final int MAX_RUNS = 1_000;

  private final Store store;
  private final Clock clock;
  private final Runnable wake;
  private final ParsedRecurrences recurrences;

  Schedules(Store store, Clock clock, Runnable wake, ParsedRecurrences recurrences) {
    this.store = store;
    this.clock = clock;
    this.wake = wake;
    this.recurrences = recurrences;
  }

  public Schedule create(Actor actor, ScheduleCreate in) {
    String name = Refs.name("schedule", in.name());
    String recurrenceText = Refs.text("recurrence", in.recurrence(), MAX_RECURRENCE);
    ZoneId zone = zone(in.zone());
    String prompt = in.prompt() == null || in.prompt().isBlank() ? null : Refs.text("prompt", in.prompt(), Runbooks.MAX_PROMPT);
    boolean hasRunbook = in.runbook() != null && !in.runbook().isBlank();
    if (hasRunbook == (prompt != null)) {
      throw new InvalidInput("a schedule runs a runbook or a prompt of its own: give exactly one of runbook and prompt");
    }
    Schedule created = store.write(w -> {
      Project project = Board.project(w, in.project());
      unique(w, project, name, null);
      Long runbook = hasRunbook ? runbookIn(w, in.runbook(), project).id() : null;
      Instant now = w.now();
      Recurrence recurrence = parse(recurrenceText, zone, now);
      boolean paused = Boolean.TRUE.equals(in.paused());
      Schedule schedule = w.schedules().insertSchedule(new Schedule(
          0, project.id(), name, runbook, prompt, recurrenceText, zone.getId(),
          in.missed() == null ? MissedPolicy.SKIP : in.missed(), in.overlap() == null ? OverlapPolicy.SKIP : in.overlap(),
          paused, recurrence.next(now).orElse(null), actor, now, now));
      w.append(new ScheduleEvent.ScheduleChanged(schedule, "created").draft(actor, project.id(), null));
      return schedule;
    });
    wakeScheduler();
    return created;
  }

  public ScheduleView get(ScheduleRef in) {
    return store.read(r -> view(r, Refs.schedule(r, in.schedule(), in.project())));
  }

  public List<ScheduleView> list(String project) {
    return store.read(r -> r.schedules().schedules(project == null || project.isBlank() ? null : Board.project(r, project).id())
        .stream().map(s -> view(r, s)).toList());
  }

  public Schedule update(Actor actor, ScheduleUpdate in) {
    String name = in.name() == null ? null : Refs.name("schedule", in.name());
    String recurrenceText = in.recurrence() == null ? null : Refs.text("recurrence", in.recurrence(), MAX_RECURRENCE);
    ZoneId zone = in.zone() == null ? null : zone(in.zone());
    String prompt = in.prompt() == null ? null : Refs.text("prompt", in.prompt(), Runbooks.MAX_PROMPT);
    if (prompt != null && in.runbook() != null) {
      throw new InvalidInput("give a runbook or a prompt, not both");
    }
    Schedule updated = store.write(w -> {
      Schedule before = Refs.schedule(w, in.schedule(), in.project());
      Project project = w.project(before.projectId()).orElseThrow();
      if (name != null) {
        unique(w, project, name, before.id());
      }
      Long runbook = in.runbook() != null ? Long.valueOf(runbookIn(w, in.runbook(), project).id()) : prompt != null ? null : before.runbookId();
      String newPrompt = in.runbook() != null ? null : prompt != null ? prompt : before.prompt();
      String text = recurrenceText != null ? recurrenceText : before.recurrence();
      ZoneId newZone = zone != null ? zone : ZoneId.of(before.zone());
      Instant now = w.now();
      Instant next = before.nextAt();
      if (recurrenceText != null || zone != null) {
        next = parse(text, newZone, before.createdAt()).next(now).orElse(null);
      }
      Schedule after = new Schedule(before.id(), before.projectId(), name != null ? name : before.name(), runbook, newPrompt,
          text, newZone.getId(), in.missed() != null ? in.missed() : before.missed(),
          in.overlap() != null ? in.overlap() : before.overlap(), before.paused(), next, before.createdBy(),
          before.createdAt(), now);
      w.schedules().updateSchedule(after);
      w.append(new ScheduleEvent.ScheduleChanged(after, "updated").draft(actor, project.id(), null));
      return after;
    });
    wakeScheduler();
    return updated;
  }

  /** Pauses or resumes; resuming computes the next firing from now (what came due while paused does not run). */
  public Schedule pause(Actor actor, ScheduleRef in, boolean paused) {
    Schedule changed = store.write(w -> {
      Schedule before = Refs.schedule(w, in.schedule(), in.project());
      if (before.paused() == paused) {
        throw new Conflict("schedule '" + before.name() + "' is already " + (paused ? "paused" : "running"));
      }
      Instant now = w.now();
      Instant next = paused ? before.nextAt() : recurrences.of(before).next(now).orElse(null);
      Schedule after = new Schedule(before.id(), before.projectId(), before.name(), before.runbookId(), before.prompt(),
          before.recurrence(), before.zone(), before.missed(), before.overlap(), paused, next, before.createdBy(),
          before.createdAt(), now);
      w.schedules().updateSchedule(after);
      w.append(new ScheduleEvent.ScheduleChanged(after, paused ? "paused" : "resumed").draft(actor, after.projectId(), null));
      return after;
    });
    wakeScheduler();
    return changed;
  }

  /** Deletes the schedule and its run history; runs still going keep their tasks and turns. */
  public ScheduleDeleted delete(Actor actor, ScheduleRef in) {
    return store.write(w -> {
      Schedule schedule = Refs.schedule(w, in.schedule(), in.project());
      w.schedules().deleteSchedule(schedule.id());
      w.append(new ScheduleEvent.ScheduleChanged(schedule, "deleted").draft(actor, schedule.projectId(), null));
      return new ScheduleDeleted(schedule.id(), schedule.name());
    });
  }

  public Firings preview(SchedulePreview in) {
    int count = in.count() == null ? 10 : in.count();
    if (count < 1 || count > MAX_PREVIEW) {
      throw new InvalidInput("count must be between 1 and " + MAX_PREVIEW + ", not " + count);
    }
    Instant from = in.from() != null ? in.from() : clock.instant();
    Recurrence recurrence;
    String text;
    ZoneId zone;
    if (in.schedule() != null && !in.schedule().isBlank()) {
      if (in.recurrence() != null || in.zone() != null) {
        throw new InvalidInput("give a schedule, or a recurrence and a zone to try out, not both");
      }
      Schedule schedule = store.read(r -> Refs.schedule(r, in.schedule(), in.project()));
      recurrence = recurrences.of(schedule);
      text = schedule.recurrence();
      zone = ZoneId.of(schedule.zone());
    } else {
      if (in.recurrence() == null || in.zone() == null) {
        throw new InvalidInput("give a schedule, or a recurrence and a zone to try out");
      }
      text = Refs.text("recurrence", in.recurrence(), MAX_RECURRENCE);
      zone = zone(in.zone());
      recurrence = parse(text, zone, from);
    }
    DateTimeFormatter local = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
    List<Firing> firings = recurrence.preview(from, count).stream()
        .map(at -> new Firing(at, local.format(at.atZone(zone)))).toList();
    return new Firings(text, zone.getId(), firings);
  }

  public ScheduleRuns runs(ScheduleRunsQuery in) {
    int limit = in.limit() == null ? 50 : in.limit();
    if (limit < 1 || limit > MAX_RUNS) {
      throw new InvalidInput("limit must be between 1 and " + MAX_RUNS + ", not " + limit);
    }
    return store.read(r -> {
      Schedule schedule = Refs.schedule(r, in.schedule(), in.project());
      return new ScheduleRuns(schedule, r.schedules().runs(schedule.id(), limit));
    });
  }

  private void wakeScheduler() {
    Locks.assertNoneHeld("waking the scheduler");
    wake.run();
  }

  private static ScheduleView view(StoreReader r, Schedule schedule) {
    String runbook = schedule.runbookId() == null ? null : r.schedules().runbook(schedule.runbookId()).map(Runbook::name).orElse(null);
    return new ScheduleView(schedule, runbook, r.schedules().runs(schedule.id(), 1).stream().findFirst().orElse(null));
  }

  private static Runbook runbookIn(StoreReader r, String ref, Project project) {
    Runbook runbook = Refs.runbook(r, ref, String.valueOf(project.id()));
    if (runbook.projectId() != project.id()) {
      throw new InvalidInput("runbook '" + runbook.name() + "' belongs to another project");
    }
    return runbook;
  }

  private static void unique(StoreWriter w, Project project, String name, Long self) {
    w.schedules().scheduleNamed(project.id(), name).filter(other -> self == null || other.id() != self).ifPresent(other -> {
      throw new Conflict("project " + project.name() + " already has a schedule named '" + other.name() + "' (" + other.id() + ")");
    });
  }

  static ZoneId zone(String raw) {
    String text = raw == null ? "" : raw.strip();
    if (text.isEmpty()) {
      throw new InvalidInput("zone must name an IANA time zone, such as Europe/Berlin");
    }
    try {
      return ZoneId.of(text);
    } catch (DateTimeException e) {
      throw new InvalidInput("unknown time zone '" + text + "': give an IANA name such as Europe/Berlin or America/New_York");
    }
  }

  private Recurrence parse(String text, ZoneId zone, Instant anchor) {
    return recurrences.parse(text, zone, anchor);
  }
}
