package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.events.HubEvent;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.ScheduleRun;

/** The events runbooks, schedules and the scheduler record; payloads as in docs/events.md. Immutable. */
sealed interface ScheduleEvent extends HubEvent {

  record RunbookSaved(Runbook runbook, boolean created) implements ScheduleEvent {
    @Override
    public String type() {
      return created ? "runbook.created" : "runbook.updated";
    }
  }

  record RunbookDeleted(Runbook runbook) implements ScheduleEvent {
    @Override
    public String type() {
      return "runbook.deleted";
    }
  }

  /** @param change created, updated, paused, resumed or deleted */
  record ScheduleChanged(Schedule schedule, String change) implements ScheduleEvent {
    @Override
    public String type() {
      return "schedule." + change;
    }
  }

  /** A firing was claimed: it runs now, waits behind the previous run, or was skipped (the run says which). */
  record Fired(ScheduleRun run, String schedule) implements ScheduleEvent {
    @Override
    public String type() {
      return "schedule.fired";
    }
  }

  /** A scheduled run ended; its status is the outcome. */
  record RunEnded(ScheduleRun run, String schedule) implements ScheduleEvent {
    @Override
    public String type() {
      return "schedule.run_ended";
    }
  }
}
