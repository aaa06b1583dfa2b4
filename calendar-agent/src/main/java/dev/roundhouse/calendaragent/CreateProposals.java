package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.calendaragent.CalendarOps.StageBatchCreate;
import dev.roundhouse.calendaragent.CalendarOps.StageCreate;
import dev.roundhouse.calendaragent.CalendarOps.Staged;
import dev.roundhouse.calendaragent.CalendarOps.StagedBatch;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Stages new events ({@code calendar_stage_create}, {@code calendar_stage_batch_create}): validates each
 * (writable calendar, taxonomy title, times with explicit zones, end after start), flags a possible duplicate
 * (same title, start and end as an existing occurrence) and opens a pending proposal. Nothing is written.
 *
 * <p>Thread-safe: stateless beyond the store and the proposal desk, which are.
 */
final class CreateProposals {
  /** At most this many events in one batch. */
  static final int MAX_BATCH = 100;

  private final CalendarStore store;
  private final ProposalDesk desk;

  CreateProposals(CalendarStore store, ProposalDesk desk) {
    this.store = store;
    this.desk = desk;
  }

  /** A validated new event. */
  private record NewEvent(CalendarSource calendar, Titles.Title title, ZonedDateTime start, ZonedDateTime end,
      LocalDate startDate, LocalDate endDate, String location, String description) {
    boolean allDay() {
      return startDate != null;
    }

    Instant startInstant() {
      return allDay() ? startDate.atStartOfDay(calendar.zone()).toInstant() : start.toInstant();
    }

    Instant endInstant() {
      return allDay() ? endDate.atStartOfDay(calendar.zone()).toInstant() : end.toInstant();
    }

    ZoneId zone() {
      return allDay() ? calendar.zone() : start.getZone();
    }
  }

  Staged stage(Actor actor, StageCreate in) {
    return open(actor, validate(in));
  }

  StagedBatch stageBatch(Actor actor, StageBatchCreate in) {
    if (in.events() == null || in.events().isEmpty()) {
      throw new RoundhouseException.InvalidInput("events is empty");
    }
    if (in.events().size() > MAX_BATCH) {
      throw new RoundhouseException.InvalidInput("a batch holds at most " + MAX_BATCH + " events, not " + in.events().size());
    }
    List<NewEvent> valid = new ArrayList<>();
    for (int i = 0; i < in.events().size(); i++) {
      try {
        valid.add(validate(in.events().get(i)));
      } catch (RoundhouseException e) {
        throw new RoundhouseException.InvalidInput("events[" + i + "]: " + e.getMessage());
      }
    }
    return new StagedBatch(valid.stream().map(event -> open(actor, event)).toList());
  }

  private NewEvent validate(StageCreate in) {
    CalendarSource calendar = store.writable(in.calendar());
    Titles.Title title = Titles.require(in.title());
    if (Boolean.TRUE.equals(in.allDay())) {
      LocalDate start = Times.parseDate("start", in.start());
      LocalDate end = in.end() == null ? start.plusDays(1) : Times.parseDate("end", in.end());
      if (!end.isAfter(start)) {
        throw new RoundhouseException.InvalidInput("end " + end + " is not after start " + start + " (the end date is exclusive)");
      }
      return new NewEvent(calendar, title, null, null, start, end, blankToNull(in.location()), blankToNull(in.description()));
    }
    ZonedDateTime start = Times.parse("start", in.start());
    if (in.end() == null) {
      throw new RoundhouseException.InvalidInput("end is required for a timed event");
    }
    ZonedDateTime end = Times.parse("end", in.end()).withZoneSameInstant(start.getZone());
    if (!end.isAfter(start)) {
      throw new RoundhouseException.InvalidInput("end " + in.end() + " is not after start " + in.start());
    }
    return new NewEvent(calendar, title, start, end, null, null, blankToNull(in.location()), blankToNull(in.description()));
  }

  private Staged open(Actor actor, NewEvent event) {
    List<Occurrence> duplicates = store.read(event.calendar().id()).expand(event.calendar().id(),
            event.calendar().zone(), event.startInstant(), event.endInstant().plusSeconds(1), Expansion.MAX_OCCURRENCES, null)
        .occurrences().stream()
        .filter(o -> o.title().strip().equalsIgnoreCase(event.title().text())
            && Instant.parse(o.start()).equals(event.startInstant()) && Instant.parse(o.end()).equals(event.endInstant()))
        .toList();
    ObjectNode request = Json.mapper().createObjectNode();
    request.put("action", "create");
    request.put("calendar", event.calendar().id());
    request.putNull("before");
    ObjectNode after = request.putObject("after");
    after.put("title", event.title().text());
    after.put("category", event.title().category());
    after.put("sub_category", event.title().subCategory());
    after.put("all_day", event.allDay());
    after.put("zone", event.zone().getId());
    after.put("start", event.startInstant().toString());
    after.put("end", event.endInstant().toString());
    after.put("start_local", event.allDay() ? event.startDate().toString() : event.start().toLocalDateTime().toString());
    after.put("end_local", event.allDay() ? event.endDate().toString() : event.end().toLocalDateTime().toString());
    if (event.location() != null) {
      after.put("location", event.location());
    }
    if (event.description() != null) {
      after.put("description", event.description());
    }
    request.set("duplicates", Json.tree(duplicates));
    String title = "Add \"" + event.title().text() + "\" to " + event.calendar().id() + " ("
        + after.get("start_local").asText() + (event.allDay() ? "" : " " + event.zone().getId()) + ")"
        + (duplicates.isEmpty() ? "" : " — possible duplicate");
    Decision decision = desk.open(actor, title, request);
    return new Staged(decision.id(), decision.status(), event.calendar().id(), CalendarExtension.uidFor(decision.id()),
        event.title().text(), duplicates);
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }
}
