package dev.roundhouse.calendaragent;

import dev.roundhouse.calendaragent.CalendarOps.Busy;
import dev.roundhouse.calendaragent.CalendarOps.CalendarInfo;
import dev.roundhouse.calendaragent.CalendarOps.Calendars;
import dev.roundhouse.calendaragent.CalendarOps.EventDetail;
import dev.roundhouse.calendaragent.CalendarOps.EventInput;
import dev.roundhouse.calendaragent.CalendarOps.Events;
import dev.roundhouse.calendaragent.CalendarOps.FreeBusy;
import dev.roundhouse.calendaragent.CalendarOps.FreeBusyInput;
import dev.roundhouse.calendaragent.CalendarOps.RangeInput;
import dev.roundhouse.calendaragent.CalendarOps.SearchInput;
import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VEvent;

/**
 * The calendar agent's read-only queries: calendars, occurrences in a range (recurrence expanded), text
 * search, free/busy and one event. Thread-safe: stateless beyond the store, which is.
 */
final class CalendarQueries {
  private static final Duration SEARCH_WINDOW = Duration.ofDays(366);
  static final Duration MAX_RANGE = Duration.ofDays(3 * 366);

  private final CalendarStore store;
  private final java.util.function.Supplier<Clock> clock;

  CalendarQueries(CalendarStore store, java.util.function.Supplier<Clock> clock) {
    this.store = store;
    this.clock = clock;
  }

  Calendars list() {
    List<CalendarInfo> infos = new ArrayList<>();
    TreeSet<String> all = new TreeSet<>();
    for (CalendarSource source : store.sources()) {
      CalendarInfo info = info(source.id());
      all.addAll(info.categories());
      infos.add(info);
    }
    return new Calendars(infos, List.copyOf(all));
  }

  /** One calendar as {@link #list} shows it; an unknown id is refused naming the configured ones. */
  CalendarInfo info(String id) {
    CalendarSource source = store.source(id);
    return info(source, store.read(source.id()));
  }

  /** {@code source} as {@link #list} shows it when it holds {@code snapshot}. */
  static CalendarInfo info(CalendarSource source, Snapshot snapshot) {
    TreeSet<String> categories = new TreeSet<>();
    List<VEvent> events = snapshot.calendar().getComponents(net.fortuna.ical4j.model.Component.VEVENT);
    for (VEvent event : events) {
      Titles.parse(Expansion.text(event, Property.SUMMARY)).ifPresent(t -> categories.add(t.categoryPath()));
    }
    return new CalendarInfo(source.id(), source.writable(), source.zone().getId(), events.size(), List.copyOf(categories));
  }

  Events events(RangeInput in) {
    Range range = range(in.from(), in.to());
    return occurrences(in.calendar(), range.from(), range.to(), limit(in.limit()));
  }

  Events search(SearchInput in) {
    if (in.text() == null || in.text().isBlank()) {
      throw new RoundhouseException.InvalidInput("text is required");
    }
    Instant now = clock.get().instant();
    Instant from = in.from() == null ? now.minus(SEARCH_WINDOW) : Times.parse("from", in.from()).toInstant();
    Instant to = in.to() == null ? now.plus(SEARCH_WINDOW) : Times.parse("to", in.to()).toInstant();
    Range range = checked(from, to);
    String needle = in.text().strip().toLowerCase(Locale.ROOT);
    Events all = occurrences(in.calendar(), range.from(), range.to(), Expansion.MAX_OCCURRENCES);
    List<Occurrence> hits = all.events().stream().filter(o -> matches(o, needle)).toList();
    int limit = limit(in.limit());
    boolean capped = all.capped() || hits.size() > limit;
    List<Occurrence> shown = hits.size() > limit ? hits.subList(0, limit) : hits;
    return new Events(shown, shown.size(), capped, capped ? capNote() : null);
  }

  private static boolean matches(Occurrence o, String needle) {
    for (String field : new String[] {o.title(), o.location(), o.description()}) {
      if (field != null && field.toLowerCase(Locale.ROOT).contains(needle)) {
        return true;
      }
    }
    return false;
  }

  FreeBusy freeBusy(FreeBusyInput in) {
    Range range = range(in.from(), in.to());
    Events events = occurrences(in.calendar(), range.from(), range.to(), Expansion.MAX_OCCURRENCES);
    List<Instant[]> intervals = new ArrayList<>();
    for (Occurrence o : events.events()) {
      if (!o.transparent()) {
        intervals.add(new Instant[] {max(Instant.parse(o.start()), range.from()), min(Instant.parse(o.end()), range.to())});
      }
    }
    intervals.sort((a, b) -> a[0].compareTo(b[0]));
    List<Busy> busy = new ArrayList<>();
    Instant start = null;
    Instant end = null;
    for (Instant[] interval : intervals) {
      if (start != null && !interval[0].isAfter(end)) {
        end = max(end, interval[1]);
        continue;
      }
      if (start != null) {
        busy.add(new Busy(start.toString(), end.toString()));
      }
      start = interval[0];
      end = interval[1];
    }
    if (start != null) {
      busy.add(new Busy(start.toString(), end.toString()));
    }
    return new FreeBusy(range.from().toString(), range.to().toString(), busy, events.capped());
  }

  EventDetail event(EventInput in) {
    CalendarSource source = store.source(in.calendar());
    Snapshot snapshot = store.read(source.id());
    List<VEvent> pieces = snapshot.calendar().<VEvent>getComponents(net.fortuna.ical4j.model.Component.VEVENT).stream()
        .filter(e -> e.getUid().map(u -> u.getValue()).orElse("").equals(in.uid()))
        .toList();
    if (pieces.isEmpty()) {
      throw new RoundhouseException.NotFound("no event '" + in.uid() + "' in calendar '" + source.id() + "'");
    }
    VEvent master = pieces.stream().filter(e -> e.getProperty(Property.RECURRENCE_ID).isEmpty()).findFirst().orElse(pieces.getFirst());
    String rrule = master.getProperty(Property.RRULE).map(Property::getValue).orElse(null);
    Occurrence occurrence = null;
    if (in.recurrenceId() != null) {
      Instant wanted = Times.parse("recurrence_id", in.recurrenceId()).toInstant();
      // an override may have moved the occurrence anywhere; look a year either way
      Expansion.Result around = snapshot.expand(source.id(), source.zone(),
          wanted.minus(SEARCH_WINDOW), wanted.plus(SEARCH_WINDOW), Expansion.MAX_OCCURRENCES, in.uid());
      occurrence = around.occurrences().stream()
          .filter(o -> o.uid().equals(in.uid()) && o.recurrenceId() != null && Instant.parse(o.recurrenceId()).equals(wanted))
          .findFirst()
          .orElseThrow(() -> new RoundhouseException.NotFound(
              "event '" + in.uid() + "' has no occurrence at " + wanted + " (cancelled, excluded or not on its rule)"));
    }
    return new EventDetail(source.id(), in.uid(), Expansion.text(master, Property.SUMMARY), rrule,
        rrule != null || master.getProperty(Property.RDATE).isPresent(), pieces.size() - 1, occurrence,
        String.join("", CalendarStore.eventBlocks(snapshot.text(), in.uid())));
  }

  private Events occurrences(String calendar, Instant from, Instant to, int limit) {
    List<CalendarSource> sources = calendar == null ? store.sources() : List.of(store.source(calendar));
    List<Occurrence> all = new ArrayList<>();
    boolean capped = false;
    for (CalendarSource source : sources) {
      Expansion.Result result = store.read(source.id()).expand(
          source.id(), source.zone(), from, to, Math.min(limit, Expansion.MAX_OCCURRENCES), null);
      all.addAll(result.occurrences());
      capped |= result.capped();
    }
    all.sort((a, b) -> a.start().compareTo(b.start()));
    if (all.size() > limit) {
      all = new ArrayList<>(all.subList(0, limit));
      capped = true;
    }
    return new Events(List.copyOf(all), all.size(), capped, capped ? capNote() : null);
  }

  static String capNote() {
    return "capped: more occurrences exist than were expanded (at most " + Expansion.MAX_OCCURRENCES
        + ", and sub-daily rules over a clamped window); narrow the range";
  }

  record Range(Instant from, Instant to) {}

  static Range range(String from, String to) {
    return checked(Times.parse("from", from).toInstant(), Times.parse("to", to).toInstant());
  }

  static Range checked(Instant from, Instant to) {
    if (!to.isAfter(from)) {
      throw new RoundhouseException.InvalidInput("to " + to + " is not after from " + from);
    }
    if (Duration.between(from, to).compareTo(MAX_RANGE) > 0) {
      throw new RoundhouseException.InvalidInput("range " + from + " to " + to + " is longer than three years");
    }
    return new Range(from, to);
  }

  static int limit(Integer limit) {
    if (limit == null) {
      return Expansion.MAX_OCCURRENCES;
    }
    if (limit < 1) {
      throw new RoundhouseException.InvalidInput("limit " + limit + " is not positive");
    }
    return Math.min(limit, Expansion.MAX_OCCURRENCES);
  }

  static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
