package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;

/**
 * The configured calendars, each behind its {@link CalendarBackend} (an ICS file or a CalDAV collection):
 * reads as {@link Snapshot}s, approved changes applied exactly once, and each write that changed a calendar
 * told to the {@link Writes} listener. Touches nothing but the configured files and collections.
 *
 * <p>Thread-safe: immutable after construction but for the listener, set once at start (volatile); the
 * backends are thread-safe; the listener is called with no lock held.
 */
final class CalendarStore {
  private final Map<String, CalendarSource> sources;
  private final Map<String, CalendarBackend> backends;
  private final List<String> order;
  private volatile Writes writes = (actor, calendar, before, after) -> {};

  /** Hears of each write through {@link #apply} that changed a calendar. */
  @FunctionalInterface
  interface Writes {
    /**
     * {@code actor}'s changes were applied to {@code calendar}, which held {@code before} and now holds
     * {@code after} (null when it could not be read back).
     */
    void written(Actor actor, CalendarSource calendar, Snapshot before, Snapshot after);
  }

  /** {@code http} is asked for (once) only if some calendar is a CalDAV collection. */
  CalendarStore(List<CalendarSource> configured, Supplier<HttpClient> http) {
    Map<String, CalendarSource> byId = new LinkedHashMap<>();
    Map<String, CalendarBackend> byIdBackends = new LinkedHashMap<>();
    for (CalendarSource source : configured) {
      byId.put(source.id(), source);
      byIdBackends.put(source.id(), source.isCalDav() ? new CalDavCalendar(source, http.get()) : new IcsFileCalendar(source));
    }
    this.sources = Map.copyOf(byId);
    this.backends = Map.copyOf(byIdBackends);
    this.order = List.copyOf(byId.keySet());
  }

  List<CalendarSource> sources() {
    return order.stream().map(sources::get).toList();
  }

  CalendarSource source(String id) {
    CalendarSource source = id == null ? null : sources.get(id);
    if (source == null) {
      throw new RoundhouseException.NotFound("no calendar '" + id + "'; configured: " + String.join(", ", order));
    }
    return source;
  }

  CalendarSource writable(String id) {
    CalendarSource source = source(id);
    if (!source.writable()) {
      throw new RoundhouseException.Forbidden("calendar_read_only", "calendar '" + id + "' is read-only");
    }
    return source;
  }

  /** The calendar as it is now (an absent file is an empty calendar). */
  Snapshot read(String id) {
    return backends.get(source(id).id()).read();
  }

  CalendarBackend backend(String id) {
    return backends.get(source(id).id());
  }

  /** Tells {@code listener} of every write from now on. */
  void onWrite(Writes listener) {
    writes = listener;
  }

  /**
   * Applies {@code actor}'s approved changes to a writable calendar (see {@link CalendarBackend#apply}); then,
   * if the calendar's text is not what it was, tells the {@link Writes} listener. A retry that finds its changes
   * in place writes nothing and tells nothing; a commit that failed part-way (one write of a split made, the
   * next refused) still tells what it changed.
   */
  void apply(Actor actor, String id, List<EventChange> changes) {
    CalendarSource source = writable(id);
    CalendarBackend backend = backends.get(source.id());
    Snapshot before = backend.read();
    try {
      backend.apply(changes);
    } finally {
      Snapshot after = readBack(backend);
      if (after != before && (after == null || !after.text().equals(before.text()))) {
        writes.written(actor, source, before, after);
      }
    }
  }

  /** The calendar after a write, or null when it cannot be read (then it may have changed). */
  private static Snapshot readBack(CalendarBackend backend) {
    try {
      return backend.read();
    } catch (RuntimeException e) {
      return null;
    }
  }

  static Calendar parse(String id, String text) {
    try {
      return new CalendarBuilder().build(new StringReader(text));
    } catch (IOException | ParserException | RuntimeException e) {
      throw new RoundhouseException("calendar_unreadable", "calendar '" + id + "' is not valid iCalendar: " + e.getMessage(), e);
    }
  }

  /** The raw VEVENT blocks of {@code text} whose UID is {@code uid}, each as its lines joined with CRLF. */
  static List<String> eventBlocks(String text, String uid) {
    List<String> found = new ArrayList<>();
    for (IcsText.Block block : IcsText.blocks(text)) {
      if (block.name().equals("VEVENT") && Optional.ofNullable(block.uid()).orElse("").equals(uid)) {
        found.add(block.text());
      }
    }
    return found;
  }
}
