package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Answers to calendar proposals: an approval by a person commits the proposal through the store, exactly
 * once (a created event's UID comes from the decision, a replacement applies only over the blocks it was
 * staged against); a rejection writes nothing. Every answer, and every refused approval, is audited.
 *
 * <p>Thread-safe: stateless beyond the store and the audit, which are. Runs on the caller of
 * {@code decision_answer}, outside any store write.
 */
final class ProposalCommits {
  private final CalendarStore store;
  private final CalendarAudit audit;

  ProposalCommits(CalendarStore store, CalendarAudit audit) {
    this.store = store;
    this.audit = audit;
  }

  void answered(Decision decision, String answer, String message, Actor actor) {
    try {
      commit(decision, answer, actor);
    } catch (RoundhouseException e) {
      audit.record("decision_answer", actor, "refused " + answer + " of decision " + decision.id() + ": " + e.getMessage());
      throw e;
    }
    audit.record("decision_answer", actor, (answer.equals("approve") ? "approved" : answer + "ed") + " decision " + decision.id()
        + ": " + decision.title() + (message == null || message.isBlank() ? "" : " (" + message + ")"));
  }

  private void commit(Decision decision, String answer, Actor actor) {
    if (!"approve".equals(answer)) {
      return;
    }
    if (actor.isAgent()) {
      throw new RoundhouseException.Forbidden("agent_cannot_approve",
          "an agent cannot approve calendar proposal " + decision.id() + "; a person must");
    }
    String action = decision.request().path("action").asText();
    switch (action) {
      case "create" -> commitCreate(decision, actor);
      case "replace" -> commitReplace(decision, actor);
      default -> throw new RoundhouseException.InvalidInput("calendar proposal " + decision.id() + " has unknown action '" + action + "'");
    }
  }

  private void commitCreate(Decision decision, Actor actor) {
    String calendar = decision.request().path("calendar").asText();
    String uid = CalendarExtension.uidFor(decision.id());
    store.apply(actor, calendar, List.of(new EventChange(calendar, uid, "", null, createdEvent(decision), decision.id())));
  }

  /** The VEVENT a create proposal adds: a function of the decision alone, so a retry writes the same bytes. */
  static String createdEvent(Decision decision) {
    var after = decision.request().path("after");
    ZoneId zone = ZoneId.of(after.path("zone").asText());
    boolean allDay = after.path("all_day").asBoolean();
    StringBuilder event = new StringBuilder();
    line(event, "BEGIN:VEVENT");
    line(event, IcsText.textLine("UID", CalendarExtension.uidFor(decision.id())));
    line(event, "DTSTAMP:" + IcsText.utc(decision.createdAt()));
    if (allDay) {
      line(event, IcsText.dateLine("DTSTART", LocalDate.parse(after.path("start_local").asText())));
      line(event, IcsText.dateLine("DTEND", LocalDate.parse(after.path("end_local").asText())));
    } else {
      line(event, IcsText.timeLine("DTSTART", Instant.parse(after.path("start").asText()).atZone(zone)));
      line(event, IcsText.timeLine("DTEND", Instant.parse(after.path("end").asText()).atZone(zone)));
    }
    line(event, IcsText.textLine("SUMMARY", after.path("title").asText()));
    line(event, IcsText.textLine("CATEGORIES", after.path("category").asText()));
    Optional.ofNullable(after.get("location")).ifPresent(v -> line(event, IcsText.textLine("LOCATION", v.asText())));
    Optional.ofNullable(after.get("description")).ifPresent(v -> line(event, IcsText.textLine("DESCRIPTION", v.asText())));
    line(event, "X-ROUNDHOUSE-DECISION:" + decision.id());
    line(event, "END:VEVENT");
    return event.toString();
  }

  /**
   * Replaces an event's blocks: exactly once, and only over the blocks the proposal was staged against. The
   * file already holding the result is a retry (nothing to do); anything else is a conflict.
   */
  private void commitReplace(Decision decision, Actor actor) {
    var request = decision.request();
    String calendar = request.path("calendar").asText();
    List<EventChange> changes = new ArrayList<>();
    changes.add(new EventChange(calendar, request.path("uid").asText(), request.path("before").path("ics").asText(),
        request.path("before").path("etag").textValue(), request.path("after").path("ics").asText(""), decision.id()));
    // a split ("this and following") also creates the following part as a new series
    request.path("also").forEach(extra -> changes.add(new EventChange(calendar, extra.path("uid").asText(),
        extra.path("before").asText(""), null, extra.path("after").asText(""), decision.id())));
    store.apply(actor, calendar, changes);
  }

  private static void line(StringBuilder out, String line) {
    out.append(line).append("\r\n");
  }
}
