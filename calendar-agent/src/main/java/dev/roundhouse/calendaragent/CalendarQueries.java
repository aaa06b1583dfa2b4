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
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VEvent;
import java.util.function.Supplier;

/**
 * The calendar agent's read-only queries: calendars, occurrences in a range (recurrence expanded), text
 * search, free/busy and one event. Thread-safe: stateless beyond the store, which is.
 */
final class CalendarQueries {
  private static final Duration SEARCH_WINDOW = Duration.ofDays(366);
  /** The longest range a query takes; see {@link #chunks} for how a long one is expanded. */
  static final Duration MAX_RANGE = Duration.ofDays(100 * 366);
  /** The first chunk of a range; each next one is twice as long, up to {@link #LONGEST_CHUNK}. */
  static final Duration FIRST_CHUNK = Duration.ofDays(31);
  static final Duration LONGEST_CHUNK = Duration.ofDays(366);

  private final CalendarStore store;
  private final Supplier<Clock> clock;

  CalendarQueries(CalendarStore store, Supplier<Clock> clock) {
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
    return occurrences(in.calendar(), range.from(), range.to(), limit(in.limit()), null);
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
    return occurrences(in.calendar(), range.from(), range.to(), limit(in.limit()), o -> matches(o, needle));
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
    Events events = occurrences(in.calendar(), range.from(), range.to(), Expansion.MAX_OCCURRENCES, null);
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
    return new FreeBusy(range.from().toString(), range.to().toString(), busy, events.capped(), events.nextFrom(), events.warnings());
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

  /**
   * The first {@code limit} occurrences overlapping [from, to) (those {@code keep} accepts, when it is not null) of
   * one calendar or all, sorted by start. Each calendar's range is expanded in {@link #chunks}, in order, until
   * more than {@code limit} are found, so a long range costs what its first {@code limit} occurrences cost. When
   * more exist, {@code next_from} is the start of the first one left out. A component that cannot be read is a
   * warning (see {@link PreparedCalendar}); over all calendars, so is a calendar that cannot be read at all.
   */
  private Events occurrences(String calendar, Instant from, Instant to, int limit, Predicate<Occurrence> keep) {
    List<CalendarSource> sources = calendar == null ? store.sources() : List.of(store.source(calendar));
    List<Occurrence> all = new ArrayList<>();
    Set<String> warnings = new LinkedHashSet<>();
    boolean clamped = false;
    for (CalendarSource source : sources) {
      Snapshot snapshot;
      try {
        snapshot = store.read(source.id());
      } catch (RuntimeException e) {
        if (calendar != null) {
          throw e;
        }
        warnings.add("calendar '" + source.id() + "' left out: " + e.getMessage());
        continue;
      }
      int found = 0;
      List<Instant> bounds = chunks(from, to);
      for (int i = 0; i + 1 < bounds.size() && found <= limit; i++) {
        Instant start = bounds.get(i);
        // a filter may keep few: expand as many as a query may, else one more than asked shows whether more exist
        Expansion.Result chunk = snapshot.expand(source.id(), source.zone(), start, bounds.get(i + 1),
            keep == null ? limit + 1 : Expansion.MAX_OCCURRENCES, null);
        warnings.addAll(chunk.warnings());
        for (Occurrence occurrence : chunk.occurrences()) {
          // one that started in an earlier chunk was taken there
          if ((i == 0 || !Instant.parse(occurrence.start()).isBefore(start)) && (keep == null || keep.test(occurrence))) {
            all.add(occurrence);
            found++;
          }
        }
        if (chunk.capped()) {
          clamped |= found <= limit; // capped short of the limit: a sub-daily rule or a chunk of more than a query takes
          break;
        }
      }
    }
    all.sort(Comparator.comparing(Occurrence::start));
    String nextFrom = all.size() > limit ? all.get(limit).start() : null;
    if (all.size() > limit) {
      all = new ArrayList<>(all.subList(0, limit));
    }
    boolean capped = clamped || nextFrom != null;
    return new Events(List.copyOf(all), all.size(), capped, capped ? capNote(nextFrom) : null, nextFrom, List.copyOf(warnings));
  }

  /**
   * The bounds of the chunks [from, to) is expanded in: 31 days, then each chunk twice as long as the one before,
   * up to a year. A first month answers most questions from month buckets ({@link ExpansionCache}); a sparse
   * calendar needs few chunks even over decades.
   */
  static List<Instant> chunks(Instant from, Instant to) {
    List<Instant> bounds = new ArrayList<>(List.of(from));
    Duration length = FIRST_CHUNK;
    for (Instant start = from; start.isBefore(to); ) {
      start = min(start.plus(length), to);
      bounds.add(start);
      length = min(length.multipliedBy(2), LONGEST_CHUNK);
    }
    return bounds;
  }

  static String capNote(String nextFrom) {
    return nextFrom != null
        ? "capped: more occurrences exist; the next starts at " + nextFrom + " (next_from): ask again from there, or narrow the range"
        : capNote();
  }

  static String capNote() {
    return "capped: more occurrences exist than were expanded (at most " + Expansion.MAX_OCCURRENCES
        + ", and sub-daily rules over a clamped window); narrow the range";
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) < 0 ? a : b;
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
      throw new RoundhouseException.InvalidInput("range " + from + " to " + to + " is longer than 100 years: ask for"
          + " at most 100 years at a time (a capped answer's next_from says where to go on)");
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
