package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi.ScheduleView;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.ScheduleRun;
import java.io.PrintWriter;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** Human renderings of schedules, their runs and firings. Stateless; thread-safe. */
final class ScheduleText {
  private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm xxx", Locale.ENGLISH);
  private static final DateTimeFormatter DAY_AND_LOCAL = DateTimeFormatter.ofPattern("EEE yyyy-MM-dd HH:mm xxx", Locale.ENGLISH);

  private ScheduleText() {}

  /** {@code schedule 'triage' (3)}: how a schedule is named in one line. */
  static String name(Schedule schedule) {
    return "schedule '" + schedule.name() + "' (" + schedule.id() + ")";
  }

  /** The zone a schedule names; UTC for one this client cannot read (a newer zone database on the hub). */
  static ZoneId zone(String zone) {
    try {
      return ZoneId.of(zone);
    } catch (DateTimeException e) {
      return ZoneOffset.UTC;
    }
  }

  /** {@code 2026-12-02 07:00 +01:00}: an instant on the wall clock of {@code zone}, with its offset; {@code -} when null. */
  static String local(Instant at, String zone) {
    return at == null ? "-" : LOCAL.format(at.atZone(zone(zone)));
  }

  /** {@code Wed 2026-12-02 07:00 +01:00}: {@link #local} with the day of the week. */
  static String dayAndLocal(Instant at, String zone) {
    return DAY_AND_LOCAL.format(at.atZone(zone(zone)));
  }

  /** {@code 2026-12-02 07:00 +01:00}, or {@code paused} / {@code ended} when the schedule will not fire. */
  static String next(Schedule schedule) {
    if (schedule.paused()) {
      return "- (paused)";
    }
    return schedule.nextAt() == null ? "- (ended)" : local(schedule.nextAt(), schedule.zone());
  }

  /** The schedules as a table: name, project, recurrence, zone, next firing in the zone, paused, last run. */
  static Table table(List<ScheduleView> views, Map<Long, String> projects) {
    Table table = new Table().row("ID", "NAME", "PROJECT", "RECURRENCE", "ZONE", "NEXT", "PAUSED", "LAST RUN");
    for (ScheduleView view : views) {
      Schedule schedule = view.schedule();
      table.row(
          schedule.id(),
          schedule.name(),
          projects.getOrDefault(schedule.projectId(), Long.toString(schedule.projectId())),
          schedule.recurrence(),
          schedule.zone(),
          next(schedule),
          schedule.paused() ? "yes" : "no",
          view.lastRun() == null ? "-" : view.lastRun().status());
    }
    return table;
  }

  /** Every field of a schedule, its last run, then its prompt when it has one of its own. */
  static void details(PrintWriter out, ScheduleView view, String projectName) {
    Schedule schedule = view.schedule();
    out.println(name(schedule));
    Table fields = new Table()
        .row("project", projectName + " (" + schedule.projectId() + ")")
        .row("runs", schedule.runbookId() == null
            ? "its own prompt"
            : "runbook '" + Objects.requireNonNullElse(view.runbook(), "?") + "' (" + schedule.runbookId() + ")")
        .row("recurrence", schedule.recurrence())
        .row("zone", schedule.zone())
        .row("next firing", next(schedule) + (schedule.nextAt() == null ? "" : " (" + Texts.time(schedule.nextAt()) + ")"))
        .row("paused", schedule.paused() ? "yes" : "no")
        .row("missed", schedule.missed().wireName())
        .row("overlap", schedule.overlap().wireName());
    ScheduleRun last = view.lastRun();
    fields.row("last run", last == null ? "-" : last.status() + ", due " + local(last.scheduledAt(), schedule.zone())
        + (last.taskId() == null ? "" : ", task " + last.taskId())
        + (last.reason() == null ? "" : ": " + Texts.abbreviate(last.reason(), 100)));
    fields
        .row("created", Texts.time(schedule.createdAt()) + " by " + Texts.or(schedule.createdBy(), "?"))
        .row("updated", Texts.time(schedule.updatedAt()))
        .print(out);
    if (schedule.prompt() != null) {
      out.println();
      out.println("prompt:");
      schedule.prompt().lines().forEach(line -> out.println("  " + line));
    }
  }
}
