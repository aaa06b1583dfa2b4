package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Random;
import net.fortuna.ical4j.model.Calendar;
import org.junit.jupiter.api.Test;

/**
 * The expansion cache answers exactly as the straightforward expansion does ({@link ReferenceExpansion}), for
 * ranges inside one month, across months and longer, with small limits; and it expands each month of a version
 * once, whatever range inside it is asked.
 */
class ExpansionCacheTest {
  static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  /** Events at and across the March/April 2026 boundary in Berlin, of every kind the cut must handle. */
  static final String BOUNDARY = """
      BEGIN:VEVENT
      UID:across
      DTSTAMP:20260101T000000Z
      DTSTART;TZID=Europe/Berlin:20260330T180000
      DTEND;TZID=Europe/Berlin:20260402T090000
      SUMMARY:Trip - Travel - Across the month
      END:VEVENT
      BEGIN:VEVENT
      UID:all-day-across
      DTSTAMP:20260101T000000Z
      DTSTART;VALUE=DATE:20260331
      DTEND;VALUE=DATE:20260402
      SUMMARY:Life - Family - Visit
      END:VEVENT
      BEGIN:VEVENT
      UID:date-only
      DTSTAMP:20260101T000000Z
      DTSTART;VALUE=DATE:20260401
      SUMMARY:Life - Notes - A day without an end
      END:VEVENT
      BEGIN:VEVENT
      UID:instant-at-the-boundary
      DTSTAMP:20260101T000000Z
      DTSTART;TZID=Europe/Berlin:20260401T000000
      SUMMARY:Life - Notes - No length, at midnight
      END:VEVENT
      BEGIN:VEVENT
      UID:duration
      DTSTAMP:20260101T000000Z
      DTSTART;TZID=Europe/Berlin:20260331T230000
      DURATION:PT2H
      SUMMARY:Work - Ops - Night shift
      END:VEVENT
      BEGIN:VEVENT
      UID:floating
      DTSTAMP:20260101T000000Z
      DTSTART:20260331T233000
      DTEND:20260401T003000
      SUMMARY:Life - Party - Floating
      END:VEVENT
      BEGIN:VEVENT
      UID:utc-to-zoned
      DTSTAMP:20260101T000000Z
      DTSTART:20260331T210000Z
      DTEND;TZID=America/New_York:20260331T190000
      SUMMARY:Work - Calls - Mixed kinds of end
      END:VEVENT
      BEGIN:VEVENT
      UID:weekly
      DTSTAMP:20260101T000000Z
      DTSTART;TZID=Europe/Berlin:20260302T093000
      DTEND;TZID=Europe/Berlin:20260302T100000
      RRULE:FREQ=WEEKLY;COUNT=10
      EXDATE;TZID=Europe/Berlin:20260316T093000
      SUMMARY:Work - Team - Standup
      END:VEVENT
      BEGIN:VEVENT
      UID:weekly
      DTSTAMP:20260101T000000Z
      RECURRENCE-ID;TZID=Europe/Berlin:20260330T093000
      DTSTART;TZID=Europe/Berlin:20260402T110000
      DTEND;TZID=Europe/Berlin:20260402T113000
      SUMMARY:Work - Team - Standup (moved into April)
      END:VEVENT
      BEGIN:VEVENT
      UID:weekly
      DTSTAMP:20260101T000000Z
      RECURRENCE-ID;TZID=Europe/Berlin:20260406T093000
      DTSTART;TZID=Europe/Berlin:20260406T093000
      DTEND;TZID=Europe/Berlin:20260406T100000
      STATUS:CANCELLED
      SUMMARY:Work - Team - Standup
      END:VEVENT
      BEGIN:VEVENT
      UID:daily-all-day
      DTSTAMP:20260101T000000Z
      DTSTART;VALUE=DATE:20260328
      DTEND;VALUE=DATE:20260329
      RRULE:FREQ=DAILY;COUNT=8
      TRANSP:TRANSPARENT
      SUMMARY:Life - Holiday - Away
      END:VEVENT
      BEGIN:VEVENT
      UID:far-future
      DTSTAMP:20260101T000000Z
      DTSTART:23000115T120000Z
      DTEND:23000115T130000Z
      SUMMARY:Life - Someday - Far off
      END:VEVENT
      """;

  private static Calendar calendar(String events) {
    return CalendarStore.parse("test", CalendarExtensionTest.ics(events.stripIndent()));
  }

  private static Instant berlin(String local) {
    return LocalDateTime.parse(local).atZone(BERLIN).toInstant();
  }

  private static void assertSame(ExpansionCache cache, Calendar calendar, Instant from, Instant to, int limit) {
    assertThat(cache.expand("test", BERLIN, from, to, limit, null))
        .as("[%s, %s) limit %d", from, to, limit)
        .isEqualTo(ReferenceExpansion.expand("test", calendar, BERLIN, from, to, limit));
  }

  @Test
  void rangesAtAndAcrossAMonthBoundaryMatchTheStraightforwardExpansion() {
    Calendar calendar = calendar(BOUNDARY);
    ExpansionCache cache = new ExpansionCache(calendar);
    List<Instant[]> ranges = List.of(
        new Instant[] {berlin("2026-03-01T00:00"), berlin("2026-04-01T00:00")},
        new Instant[] {berlin("2026-04-01T00:00"), berlin("2026-05-01T00:00")},
        new Instant[] {berlin("2026-03-25T00:00"), berlin("2026-04-05T00:00")},
        new Instant[] {berlin("2026-03-30T12:00"), berlin("2026-04-01T00:00")},
        new Instant[] {berlin("2026-04-01T00:00"), berlin("2026-04-01T00:30")},
        new Instant[] {berlin("2026-04-01T12:00"), berlin("2026-04-03T00:00")},
        new Instant[] {berlin("2026-02-01T00:00"), berlin("2026-06-01T00:00")},
        new Instant[] {berlin("2026-01-01T00:00"), berlin("2026-07-01T00:00")},
        new Instant[] {Instant.parse("2300-01-01T00:00:00Z"), Instant.parse("2300-02-01T00:00:00Z")});
    for (Instant[] range : ranges) {
      for (int limit : new int[] {Expansion.MAX_OCCURRENCES, 3, 1}) {
        assertSame(cache, calendar, range[0], range[1], limit);
      }
    }
    assertThat(cache.expand("test", BERLIN, berlin("2026-03-31T00:00"), berlin("2026-04-03T00:00"), 100, null).occurrences())
        .extracting(Occurrence::uid)
        .as("the moved standup is in April, the cancelled one nowhere, the one at midnight once")
        .contains("weekly", "across", "instant-at-the-boundary", "duration", "floating", "utc-to-zoned")
        .containsOnlyOnce("instant-at-the-boundary");
  }

  @Test
  void randomRangesOverAGeneratedCalendarMatchTheStraightforwardExpansion() {
    Calendar calendar = CalendarStore.parse("test", CalendarBench.generate(400, new Random(7)));
    ExpansionCache cache = new ExpansionCache(calendar);
    Random random = new Random(11);
    for (int i = 0; i < 40; i++) {
      Instant from = berlin("2025-01-01T00:00").plusSeconds(3_600L * random.nextInt(24 * 730));
      Instant to = from.plusSeconds(3_600L * (1 + random.nextInt(24 * 100)));
      int limit = new int[] {5, 100, Expansion.MAX_OCCURRENCES}[random.nextInt(3)];
      assertSame(cache, calendar, from, to, limit);
    }
  }

  @Test
  void eachMonthOfAVersionIsExpandedOnceWhateverRangeInsideItIsAsked() {
    Calendar calendar = CalendarStore.parse("test", CalendarBench.generate(400, new Random(7)));
    ExpansionCache cache = new ExpansionCache(calendar);
    cache.expand("test", BERLIN, berlin("2026-03-01T00:00"), berlin("2026-04-01T00:00"), Expansion.MAX_OCCURRENCES, null);
    assertThat(cache.expansions()).isEqualTo(1);
    cache.expand("test", BERLIN, berlin("2026-03-08T00:00"), berlin("2026-03-15T00:00"), Expansion.MAX_OCCURRENCES, null);
    cache.expand("test", BERLIN, berlin("2026-03-01T00:00"), berlin("2026-04-01T00:00"), 10, null);
    cache.expand("test", BERLIN, berlin("2026-03-31T09:00"), berlin("2026-03-31T10:00"), Expansion.MAX_OCCURRENCES, null);
    assertThat(cache.expansions()).as("ranges inside March").isEqualTo(1);
    cache.expand("test", BERLIN, berlin("2026-03-25T00:00"), berlin("2026-04-08T00:00"), Expansion.MAX_OCCURRENCES, null);
    assertThat(cache.expansions()).as("a fortnight into April expands April only").isEqualTo(2);
    cache.expand("test", BERLIN, berlin("2026-01-01T00:00"), berlin("2026-12-01T00:00"), Expansion.MAX_OCCURRENCES, null);
    cache.expand("test", BERLIN, berlin("2026-01-01T00:00"), berlin("2026-12-01T00:00"), Expansion.MAX_OCCURRENCES, null);
    assertThat(cache.expansions()).as("a long range is expanded for itself, once").isEqualTo(3);
  }

  @Test
  void aCalendarWithASubDailyRuleIsExpandedPerRangeAndStaysCapped() {
    Calendar calendar = calendar("""
        BEGIN:VEVENT
        UID:every-second
        DTSTAMP:20260101T000000Z
        DTSTART:20260301T000000Z
        DTEND:20260301T000001Z
        RRULE:FREQ=SECONDLY
        SUMMARY:Spam - Noise - Every second
        END:VEVENT
        """);
    ExpansionCache cache = new ExpansionCache(calendar);
    Expansion.Result month = cache.expand("test", BERLIN, berlin("2026-03-01T00:00"), berlin("2026-04-01T00:00"), Expansion.MAX_OCCURRENCES, null);
    assertThat(month.capped()).isTrue();
    // the rule is expanded over 5,000 steps from the range's start (23:00Z the day before the series begins)
    assertThat(month.occurrences()).hasSize(1402);
    cache.expand("test", BERLIN, berlin("2026-03-08T00:00"), berlin("2026-03-15T00:00"), Expansion.MAX_OCCURRENCES, null);
    assertThat(cache.expansions()).as("no month buckets for a clamped rule").isEqualTo(2);
  }
}
