package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.RoundhouseException;

/**
 * One approved change to one event (all VEVENT blocks of a UID): from {@code before} (empty: the event does
 * not exist yet) to {@code after} (empty: it is deleted). Immutable.
 *
 * @param etag the CalDAV ETag of the object {@code before} was read from; null for files and creates
 * @param decision the proposal, named in conflicts
 */
record EventChange(String calendar, String uid, String before, String etag, String after, long decision) {

  /**
   * Whether {@code now} (the event's blocks as the calendar holds them) already is {@code after}: a retry,
   * nothing to write. Throws {@link #conflict()} when it is neither {@code after} nor {@code before}.
   */
  boolean alreadyApplied(String now) {
    if (IcsText.sameEvents(now, after)) {
      return true;
    }
    if (IcsText.sameEvents(now, before)) {
      return false;
    }
    throw conflict();
  }

  RoundhouseException.Conflict conflict() {
    if (before.isEmpty()) {
      return new RoundhouseException.Conflict("calendar '" + calendar + "' already holds a different event '" + uid
          + "', so proposal " + decision + " was not written");
    }
    return new RoundhouseException.Conflict("event '" + uid + "' in calendar '" + calendar + "' changed since proposal "
        + decision + " was staged; nothing was overwritten: reject it and stage the change again");
  }
}
