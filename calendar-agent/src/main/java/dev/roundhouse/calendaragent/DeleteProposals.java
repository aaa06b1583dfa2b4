package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.calendaragent.CalendarOps.EventInput;
import dev.roundhouse.calendaragent.CalendarOps.StageDelete;
import dev.roundhouse.calendaragent.CalendarOps.Staged;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Stages a delete ({@code calendar_stage_delete}) in the scope it names: {@code all} removes the event with
 * its overrides, {@code this} adds an EXDATE in the series' own form (and drops that occurrence's override),
 * {@code following} ends the series before the cut. Nothing is written.
 *
 * <p>Thread-safe: stateless beyond the store, the queries and the desk, which are.
 */
final class DeleteProposals {
  private final CalendarStore store;
  private final CalendarQueries queries;
  private final ProposalDesk desk;

  DeleteProposals(CalendarStore store, CalendarQueries queries, ProposalDesk desk) {
    this.store = store;
    this.queries = queries;
    this.desk = desk;
  }

  Staged stage(Actor actor, StageDelete in) {
    CurrentEvent current = CurrentEvent.of(store, in.calendar(), in.uid());
    String scope = CurrentEvent.scope(in.scope(), current.recurring(), "delete");
    String title = Expansion.text(current.master());
    ObjectNode request = Json.mapper().createObjectNode();
    request.put("action", "replace");
    request.put("calendar", current.calendar().id());
    request.put("uid", in.uid());
    request.put("scope", scope);
    ObjectNode before = request.putObject("before");
    before.put("title", title);
    IcsEdit.property(current.master(), "RRULE").ifPresent(rule -> before.put("rrule", IcsEdit.value(rule)));
    before.put("overrides", current.blocks().size() - 1);
    before.put("ics", current.before());
    if (current.etag() != null) {
      before.put("etag", current.etag());
    }
    String decisionTitle;
    if (scope.equals(CurrentEvent.FOLLOWING)) {
      if (in.recurrenceId() == null) {
        throw new RoundhouseException.InvalidInput("scope 'following' needs recurrence_id: the original start of the first occurrence to delete");
      }
      Occurrence occurrence = queries.event(new EventInput(current.calendar().id(), in.uid(), in.recurrenceId())).occurrence();
      Instant cut = Instant.parse(occurrence.recurrenceId());
      if (cut.equals(IcsEdit.instant(IcsEdit.property(current.master(), "DTSTART").orElseThrow(), current.calendar().zone()))) {
        scope = "all"; // from the first occurrence on is the whole series
        request.put("scope", scope);
      } else {
        before.set("occurrence", Json.tree(occurrence));
        SeriesEdit.Split split = SeriesEdit.split(current.blocks(), current.master(), cut, current.calendar().zone());
        request.putObject("after").put("ics", split.before().stream().map(IcsEdit::fold).reduce("", String::concat));
        decisionTitle = "Delete \"" + title + "\" from " + occurrence.startLocal() + " on, in " + current.calendar().id();
        Decision decision = desk.open(actor, decisionTitle, request);
        return new Staged(decision.id(), decision.status(), current.calendar().id(), in.uid(), title, List.of());
      }
    }
    if (scope.equals("all")) {
      request.putNull("after");
      decisionTitle = "Delete \"" + title + "\"" + (current.recurring() ? " (whole series)" : "") + " from " + current.calendar().id();
    } else {
      if (in.recurrenceId() == null) {
        throw new RoundhouseException.InvalidInput("scope 'this' needs recurrence_id: the occurrence's original start");
      }
      ZoneId calendarZone = current.calendar().zone();
      Occurrence occurrence = queries.event(new EventInput(current.calendar().id(), in.uid(), in.recurrenceId())).occurrence();
      Instant original = Instant.parse(occurrence.recurrenceId());
      before.set("occurrence", Json.tree(occurrence));
      String masterStart = IcsEdit.property(current.master(), "DTSTART").orElseThrow();
      List<List<String>> after = new ArrayList<>();
      for (List<String> block : current.blocks()) {
        if (block == current.master()) {
          after.add(IcsEdit.bumpSequence(IcsEdit.add(block, IcsEdit.like("EXDATE", masterStart, original, calendarZone))));
        } else if (!IcsEdit.instant(IcsEdit.property(block, "RECURRENCE-ID").orElseThrow(), calendarZone).equals(original)) {
          after.add(block);
        }
      }
      request.putObject("after").put("ics", after.stream().map(IcsEdit::fold).reduce("", String::concat));
      decisionTitle = "Delete one occurrence of \"" + title + "\" (" + occurrence.startLocal() + ") from " + current.calendar().id();
    }
    Decision decision = desk.open(actor, decisionTitle, request);
    return new Staged(decision.id(), decision.status(), current.calendar().id(), in.uid(), title, List.of());
  }
}
