package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.calendaragent.CalendarOps.EventInput;
import dev.roundhouse.calendaragent.CalendarOps.StageUpdate;
import dev.roundhouse.calendaragent.CalendarOps.Staged;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Stages a change of one event ({@code calendar_stage_update}) in the scope it names: {@code this} writes a
 * RECURRENCE-ID override, {@code following} splits the series (the rest becomes a new series, under
 * {@code also}), {@code all} edits the series and may move all of it by one wall-clock shift. The proposal
 * carries the event's blocks before and after, and says what changes ({@link UpdateChanges}: in its title,
 * its {@code summary} and its {@code changes}); nothing is written.
 *
 * <p>Thread-safe: stateless beyond the store, the queries and the desk, which are.
 */
final class UpdateProposals {
  private final CalendarStore store;
  private final CalendarQueries queries;
  private final ProposalDesk desk;

  UpdateProposals(CalendarStore store, CalendarQueries queries, ProposalDesk desk) {
    this.store = store;
    this.queries = queries;
    this.desk = desk;
  }

  Staged stage(Actor actor, StageUpdate in) {
    CurrentEvent current = CurrentEvent.of(store, in.calendar(), in.uid());
    String scope = CurrentEvent.scope(in.scope(), current.recurring(), "update");
    ZoneId calendarZone = current.calendar().zone();
    Titles.Title title = in.title() == null ? null : Titles.require(in.title());
    List<ZoneId> zones = new ArrayList<>();
    List<List<String>> after = new ArrayList<>(current.blocks());
    Occurrence occurrence = null;
    List<String> source = current.master(); // the block whose fields change: the override for scope this
    ArrayNode also = Json.mapper().createArrayNode();
    boolean moves = in.start() != null || in.end() != null;
    Instant masterStart = IcsEdit.instant(IcsEdit.property(current.master(), "DTSTART").orElseThrow(), calendarZone);
    if (!scope.equals("this") && in.recurrenceId() != null && current.recurring()) {
      occurrence = queries.event(new EventInput(current.calendar().id(), in.uid(), in.recurrenceId())).occurrence();
      if (scope.equals(CurrentEvent.FOLLOWING) && Instant.parse(occurrence.recurrenceId()).equals(masterStart)) {
        scope = "all"; // this and following from the first occurrence is the whole series
      }
    }
    if (scope.equals(CurrentEvent.FOLLOWING)) {
      if (occurrence == null) {
        throw new RoundhouseException.InvalidInput("scope 'following' needs recurrence_id: the original start of the first occurrence to change");
      }
      SeriesEdit.Split split = SeriesEdit.split(after, current.master(), Instant.parse(occurrence.recurrenceId()), calendarZone);
      after = new ArrayList<>(split.before());
      List<List<String>> following = split.following();
      following = retitled(following, following.getFirst(), title, in.location(), in.description());
      if (moves) {
        following = movedSeries(following, following.getFirst(), Instant.parse(occurrence.recurrenceId()), in, calendarZone, zones);
      }
      ObjectNode part = also.addObject();
      part.put("uid", split.newUid());
      part.put("before", "");
      part.put("after", following.stream().map(IcsEdit::fold).reduce("", String::concat));
    } else if (scope.equals("all") && current.recurring()) {
      int masterIndex = after.indexOf(current.master());
      after = retitled(after, current.master(), title, in.location(), in.description());
      if (moves) {
        Instant reference = occurrence != null ? Instant.parse(occurrence.recurrenceId()) : masterStart;
        after = movedSeries(after, after.get(masterIndex), reference, in, calendarZone, zones);
      } else {
        after.replaceAll(block -> current.blocks().contains(block) ? block : IcsEdit.bumpSequence(block));
      }
    } else if (scope.equals("all")) {
      for (int i = 0; i < after.size(); i++) {
        List<String> block = after.get(i);
        boolean isMaster = block == current.master();
        List<String> edited = fields(block, current.master(), isMaster, title, in.location(), in.description());
        if (isMaster && moves) {
          edited = moved(edited, edited, in.start(), in.end(), calendarZone, zones);
        }
        if (!edited.equals(block)) {
          after.set(i, IcsEdit.bumpSequence(edited));
        }
      }
    } else {
      if (in.recurrenceId() == null) {
        throw new RoundhouseException.InvalidInput("scope 'this' needs recurrence_id: the occurrence's original start");
      }
      occurrence = queries.event(new EventInput(current.calendar().id(), in.uid(), in.recurrenceId())).occurrence();
      Instant original = Instant.parse(occurrence.recurrenceId());
      int index = overrideIndex(after, original, calendarZone);
      List<String> block = index >= 0 ? after.get(index) : newOverride(current.master(), occurrence, calendarZone);
      source = block;
      List<String> edited = fields(block, block, false, title, in.location(), in.description());
      edited = moved(edited, edited, in.start(), in.end(), calendarZone, zones);
      edited = IcsEdit.bumpSequence(edited);
      if (index >= 0) {
        after.set(index, edited);
      } else {
        after.add(edited);
      }
    }
    String afterIcs = after.stream().map(IcsEdit::fold).reduce("", String::concat);
    if (afterIcs.equals(current.before())) {
      throw new RoundhouseException.InvalidInput("the update changes nothing");
    }
    UpdateChanges changes = UpdateChanges.of(scope, current.master(), source, occurrence, calendarZone, in, title);
    ObjectNode request = request(current, in.uid(), scope, occurrence, afterIcs, zones, also, changes);
    String shown = title != null ? title.text() : Expansion.text(current.master());
    Decision decision = desk.open(actor, "Change \"" + Expansion.text(source) + "\"" + scopeNote(scope, occurrence, current.recurring())
        + " in " + current.calendar().id() + (changes.summary().isEmpty() ? "" : ": " + changes.summary()), request);
    return new Staged(decision.id(), decision.status(), current.calendar().id(), in.uid(), shown, List.of());
  }

  /** What the decision's title says of the scope: one occurrence, from one on, or the whole series. */
  private static String scopeNote(String scope, Occurrence occurrence, boolean recurring) {
    if (scope.equals("this")) {
      return " (one occurrence, " + occurrence.startLocal() + ")";
    }
    if (scope.equals(CurrentEvent.FOLLOWING)) {
      return " (from " + occurrence.startLocal() + " on)";
    }
    return recurring ? " (whole series)" : "";
  }

  /** The index of the override (RECURRENCE-ID block) of the occurrence originally at {@code original}, or -1. */
  private static int overrideIndex(List<List<String>> blocks, Instant original, ZoneId calendarZone) {
    int index = -1;
    for (int i = 0; i < blocks.size(); i++) {
      Optional<String> rid = IcsEdit.property(blocks.get(i), "RECURRENCE-ID");
      if (rid.isPresent() && IcsEdit.instant(rid.get(), calendarZone).equals(original)) {
        index = i;
      }
    }
    return index;
  }

  /** A new override of one occurrence: the master's fields without its recurrence and times, at the occurrence's. */
  private static List<String> newOverride(List<String> master, Occurrence occurrence, ZoneId calendarZone) {
    String masterStartLine = IcsEdit.property(master, "DTSTART").orElseThrow();
    List<String> block = new ArrayList<>();
    for (String line : master) {
      String name = IcsEdit.name(line);
      if (!List.of("RRULE", "RDATE", "EXDATE", "EXRULE", "DTSTART", "DTEND", "DURATION", "SEQUENCE").contains(name)) {
        block.add(line);
      }
    }
    block = IcsEdit.add(block, IcsEdit.like("RECURRENCE-ID", masterStartLine, Instant.parse(occurrence.recurrenceId()), calendarZone));
    block = IcsEdit.add(block, IcsEdit.like("DTSTART", masterStartLine, Instant.parse(occurrence.start()), calendarZone));
    return IcsEdit.add(block, IcsEdit.like("DTEND", masterStartLine, Instant.parse(occurrence.end()), calendarZone));
  }

  /**
   * The proposal's request: what changes ({@code summary}, {@code changes}, see {@link UpdateChanges}), and
   * the event before (ICS, ETag, the occurrence) and after.
   */
  private static ObjectNode request(CurrentEvent current, String uid, String scope, Occurrence occurrence, String afterIcs,
      List<ZoneId> zones, ArrayNode also, UpdateChanges changes) {
    ObjectNode request = Json.mapper().createObjectNode();
    request.put("action", "replace");
    request.put("calendar", current.calendar().id());
    request.put("uid", uid);
    request.put("scope", scope);
    request.put("summary", changes.summary());
    request.set("changes", changes.changes());
    ObjectNode before = request.putObject("before");
    before.put("title", Expansion.text(current.master()));
    if (occurrence != null) {
      before.set("occurrence", Json.tree(occurrence));
    }
    before.put("ics", current.before());
    if (current.etag() != null) {
      before.put("etag", current.etag());
    }
    ObjectNode afterNode = request.putObject("after");
    afterNode.put("ics", afterIcs);
    request.set("zones", Json.tree(zones.stream().map(ZoneId::getId).distinct().toList()));
    if (!also.isEmpty()) {
      request.set("also", also);
    }
    return request;
  }

  /** The series' blocks with the given fields set; overrides that showed the series' old value follow it. */
  private static List<List<String>> retitled(List<List<String>> blocks, List<String> master, Titles.Title title, String location, String description) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> block : blocks) {
      List<String> edited = fields(block, master, block == master, title, location, description);
      out.add(edited.equals(block) ? block : edited);
    }
    return out;
  }

  /** The series moved in time (scope all, or the part split off): the occurrence at {@code reference} goes to start/end. */
  private static List<List<String>> movedSeries(List<List<String>> blocks, List<String> master, Instant reference,
      StageUpdate in, ZoneId calendarZone, List<ZoneId> zones) {
    boolean allDay = IcsEdit.value(IcsEdit.property(master, "DTSTART").orElseThrow()).strip().length() == 8;
    if (in.start() == null) {
      throw new RoundhouseException.InvalidInput("moving a series needs start (the new start of the occurrence "
          + (in.recurrenceId() == null ? "that opens the series" : in.recurrenceId()) + "); end alone is not enough");
    }
    ZonedDateTime start = allDay ? null : Times.parse("start", in.start());
    ZonedDateTime end = allDay || in.end() == null ? null : Times.parse("end", in.end());
    LocalDate startDate = allDay ? Times.parseDate("start", in.start()) : null;
    LocalDate endDate = allDay && in.end() != null ? Times.parseDate("end", in.end()) : null;
    if (start != null) {
      zones.add(start.getZone());
    }
    return SeriesEdit.shift(blocks, master, reference, start, end, startDate, endDate, calendarZone);
  }

  /** {@code block} with the given fields set; on the master, overrides still showing the old value follow it. */
  private static List<String> fields(List<String> block, List<String> master, boolean isMaster, Titles.Title title, String location, String description) {
    List<String> out = block;
    out = field(out, master, isMaster, "SUMMARY", title == null ? null : title.text());
    if (title != null) {
      out = IcsEdit.set(out, "CATEGORIES", null);
      out = IcsEdit.set(out, "CATEGORIES", IcsText.textLine("CATEGORIES", title.category()));
    }
    out = field(out, master, isMaster, "LOCATION", location);
    out = field(out, master, isMaster, "DESCRIPTION", description);
    return out;
  }

  private static List<String> field(List<String> block, List<String> master, boolean isMaster, String name, String value) {
    if (value == null) {
      return block;
    }
    if (!isMaster && block != master && !IcsEdit.property(block, name).equals(IcsEdit.property(master, name))) {
      return block; // an override with its own value keeps it
    }
    return IcsEdit.set(block, name, value.isBlank() ? null : IcsText.textLine(name, value.strip()));
  }

  /** {@code block} moved to {@code start}/{@code end} (either may be absent: the duration is kept). */
  private static List<String> moved(List<String> block, List<String> source, String start, String end, ZoneId calendarZone, List<ZoneId> zones) {
    if (start == null && end == null) {
      return block;
    }
    String startLine = IcsEdit.property(source, "DTSTART").orElseThrow();
    boolean allDay = IcsEdit.value(startLine).strip().length() == 8;
    Instant oldStart = IcsEdit.instant(startLine, calendarZone);
    Optional<String> endLine = IcsEdit.property(source, "DTEND");
    Instant oldEnd = endLine.map(l -> IcsEdit.instant(l, calendarZone)).orElse(oldStart);
    Duration length = Duration.between(oldStart, oldEnd);
    List<String> out = IcsEdit.set(block, "DURATION", null);
    if (allDay) {
      LocalDate newStart = start == null ? oldStart.atZone(calendarZone).toLocalDate() : Times.parseDate("start", start);
      LocalDate newEnd = end == null ? newStart.plusDays(Math.max(1, length.toDays())) : Times.parseDate("end", end);
      if (!newEnd.isAfter(newStart)) {
        throw new RoundhouseException.InvalidInput("end " + newEnd + " is not after start " + newStart + " (the end date is exclusive)");
      }
      out = IcsEdit.set(out, "DTSTART", IcsText.dateLine("DTSTART", newStart));
      return IcsEdit.set(out, "DTEND", IcsText.dateLine("DTEND", newEnd));
    }
    ZonedDateTime newStart = start != null ? Times.parse("start", start)
        : oldStart.atZone(Expansion.zoneOfLine(startLine, calendarZone));
    ZonedDateTime newEnd = end != null ? Times.parse("end", end).withZoneSameInstant(newStart.getZone()) : newStart.plus(length);
    if (!newEnd.isAfter(newStart)) {
      throw new RoundhouseException.InvalidInput("end " + newEnd + " is not after start " + newStart);
    }
    zones.add(newStart.getZone());
    out = IcsEdit.set(out, "DTSTART", IcsText.timeLine("DTSTART", newStart));
    return IcsEdit.set(out, "DTEND", IcsText.timeLine("DTEND", newEnd));
  }
}
