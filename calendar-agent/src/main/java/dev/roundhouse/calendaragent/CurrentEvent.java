package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.RoundhouseException;
import java.util.List;
import java.util.Locale;

/**
 * The blocks of one event as a writable calendar holds them now, which an update or delete proposal is
 * staged against (its {@code before}), and the scope such a change names.
 *
 * @param calendar the calendar
 * @param before the event's VEVENT blocks as stored (folded, CRLF), the text a commit must still find
 * @param etag the CalDAV object's ETag when staged, or null for a file
 * @param blocks the blocks unfolded into logical lines; {@code master} is one of them (by identity)
 * @param master the series (or the single event): the block without RECURRENCE-ID
 * @param recurring whether the master has an RRULE or RDATE
 */
record CurrentEvent(CalendarSource calendar, String before, String etag, List<List<String>> blocks, List<String> master, boolean recurring) {
  /** The scope "this and following". */
  static final String FOLLOWING = "following";

  /** The event {@code uid} of the writable calendar {@code calendarId}, or a clear refusal. */
  static CurrentEvent of(CalendarStore store, String calendarId, String uid) {
    CalendarSource calendar = store.writable(calendarId);
    if (uid == null || uid.isBlank()) {
      throw new RoundhouseException.InvalidInput("uid is required");
    }
    Snapshot snapshot = store.read(calendar.id());
    List<String> stored = CalendarStore.eventBlocks(snapshot.text(), uid);
    if (stored.isEmpty()) {
      throw new RoundhouseException.NotFound("no event '" + uid + "' in calendar '" + calendar.id() + "'");
    }
    List<List<String>> logical = stored.stream().map(IcsEdit::unfold).toList();
    List<String> master = logical.stream().filter(b -> !IcsEdit.isOverride(b)).findFirst()
        .orElseThrow(() -> new RoundhouseException.Conflict("event '" + uid + "' has overrides but no series; edit it in a calendar app"));
    boolean recurring = IcsEdit.property(master, "RRULE").isPresent() || IcsEdit.property(master, "RDATE").isPresent();
    Snapshot.Located located = snapshot.located(uid);
    return new CurrentEvent(calendar, String.join("", stored), located == null ? null : located.etag(), logical, master, recurring);
  }

  /**
   * The scope a change names, normalised to {@code this}, {@value #FOLLOWING} or {@code all}: an update of a
   * recurring event must name one; a delete defaults to {@code all}.
   */
  static String scope(String scope, boolean recurring, String operation) {
    if (scope == null) {
      if (recurring && operation.equals("update")) {
        throw new RoundhouseException.InvalidInput("this event recurs: say scope 'this' (one occurrence, with recurrence_id),"
            + " 'following' (this and following, with recurrence_id) or 'all'");
      }
      return "all";
    }
    String normal = scope.strip().toLowerCase(Locale.ROOT).replace('_', ' ');
    if (normal.equals("this and following")) {
      normal = FOLLOWING;
    }
    if (!normal.equals("this") && !normal.equals("all") && !normal.equals(FOLLOWING)) {
      throw new RoundhouseException.InvalidInput("scope '" + scope + "' is not 'this', 'following' (this and following) or 'all'");
    }
    if (!normal.equals("all") && !recurring) {
      throw new RoundhouseException.InvalidInput("scope '" + scope + "' is for recurring events; this one does not recur");
    }
    return normal;
  }
}
