package dev.roundhouse.calendaragent;

import dev.roundhouse.calendaragent.CalendarOps.CalendarInfo;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.spi.ExtensionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Tells the hub which of the calendar agent's resources ({@link CalendarResources}) a change touched, through
 * {@link ExtensionContext#resourcesChanged}, so MCP subscribers are notified:
 *
 * <ul>
 *   <li>a write to a calendar ({@link CalendarStore.Writes}: an approved proposal) touches
 *       {@code roundhouse://calendars/<id>}; also the listing {@code roundhouse://calendars} when that calendar's
 *       entry in it changed (its number of events or its categories), and {@code roundhouse://calendar/categories}
 *       when its categories changed;
 *   <li>an audit entry touches {@code roundhouse://calendar/audit};
 *   <li>the prompt's override changing ({@link PromptWatch}) touches {@code roundhouse://calendar/prompt}.
 * </ul>
 *
 * Only changes the hub makes are seen: an event added on the CalDAV server or in the ICS file by someone else
 * notifies no one (a read shows it).
 *
 * <p>Thread-safe: stateless beyond the context, which is.
 */
final class CalendarResourceChanges implements CalendarStore.Writes {
  private final ExtensionContext context;

  CalendarResourceChanges(ExtensionContext context) {
    this.context = context;
  }

  @Override
  public void written(Actor actor, CalendarSource calendar, Snapshot before, Snapshot after) {
    CalendarInfo was = CalendarQueries.info(calendar, before);
    CalendarInfo now = after == null ? null : CalendarQueries.info(calendar, after);
    List<String> uris = new ArrayList<>(List.of(CalendarResources.calendar(calendar.id())));
    if (!Objects.equals(was, now)) {
      uris.add(CalendarResources.CALENDARS);
    }
    if (now == null || !was.categories().equals(now.categories())) {
      uris.add(CalendarResources.CATEGORIES);
    }
    context.resourcesChanged(actor, uris.toArray(String[]::new));
  }

  /** An audit entry was recorded for {@code actor}. */
  void audited(Actor actor) {
    context.resourcesChanged(actor, CalendarResources.AUDIT);
  }

  /** The prompt's override was created, edited or deleted (by the user, in their editor). */
  void promptChanged() {
    context.resourcesChanged(Actor.USER, CalendarResources.PROMPT);
  }
}
