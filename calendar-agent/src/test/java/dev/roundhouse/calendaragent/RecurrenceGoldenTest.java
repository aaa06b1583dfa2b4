package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Recurrence expansion checked against hand-computed instants. */
class RecurrenceGoldenTest {

  private static List<String> starts(String events, String calendarZone, String from, String to) {
    return expand(events, calendarZone, from, to).stream().map(Occurrence::start).toList();
  }

  private static List<Occurrence> expand(String events, String calendarZone, String from, String to) {
    String text = CalendarExtensionTest.ics(events.stripIndent());
    return Expansion.expand("test", CalendarStore.parse("test", text), ZoneId.of(calendarZone),
        Instant.parse(from), Instant.parse(to), Expansion.MAX_OCCURRENCES).occurrences();
  }

  @Test
  void berlinSpringForwardKeepsTheWallClockTime() {
    List<String> starts = starts("""
        BEGIN:VEVENT
        UID:a
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Europe/Berlin:20260328T093000
        DTEND;TZID=Europe/Berlin:20260328T100000
        RRULE:FREQ=DAILY;COUNT=3
        SUMMARY:A - B - C
        END:VEVENT
        """, "UTC", "2026-03-27T00:00:00Z", "2026-04-01T00:00:00Z");
    assertThat(starts).containsExactly("2026-03-28T08:30:00Z", "2026-03-29T07:30:00Z", "2026-03-30T07:30:00Z");
  }

  @Test
  void sydneyAutumnDstEndMovesTheUtcInstantLater() {
    List<Occurrence> occurrences = expand("""
        BEGIN:VEVENT
        UID:a
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Australia/Sydney:20260404T100000
        DTEND;TZID=Australia/Sydney:20260404T110000
        RRULE:FREQ=WEEKLY;COUNT=2
        SUMMARY:A - B - C
        END:VEVENT
        """, "Europe/Berlin", "2026-04-01T00:00:00Z", "2026-04-20T00:00:00Z");
    assertThat(occurrences).extracting(Occurrence::start).containsExactly("2026-04-03T23:00:00Z", "2026-04-11T00:00:00Z");
    assertThat(occurrences).extracting(Occurrence::startLocal).containsOnly("2026-04-04T10:00", "2026-04-11T10:00");
    assertThat(occurrences).extracting(Occurrence::zone).containsOnly("Australia/Sydney");
  }

  @Test
  void newYorkFallBackKeepsTheWallClockTime() {
    assertThat(starts("""
        BEGIN:VEVENT
        UID:a
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=America/New_York:20261031T090000
        DTEND;TZID=America/New_York:20261031T100000
        RRULE:FREQ=DAILY;COUNT=2
        SUMMARY:A - B - C
        END:VEVENT
        """, "UTC", "2026-10-30T00:00:00Z", "2026-11-03T00:00:00Z"))
        .containsExactly("2026-10-31T13:00:00Z", "2026-11-01T14:00:00Z");
  }

  @Test
  void untilIsInclusiveAndCountIncludesExcludedDates() {
    assertThat(starts("""
        BEGIN:VEVENT
        UID:until
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Europe/Berlin:20260302T090000
        DTEND;TZID=Europe/Berlin:20260302T100000
        RRULE:FREQ=DAILY;UNTIL=20260305T080000Z
        SUMMARY:A - B - Until
        END:VEVENT
        BEGIN:VEVENT
        UID:count
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Europe/Berlin:20260302T120000
        DTEND;TZID=Europe/Berlin:20260302T130000
        RRULE:FREQ=DAILY;COUNT=3
        EXDATE;TZID=Europe/Berlin:20260303T120000
        SUMMARY:A - B - Count
        END:VEVENT
        """, "Europe/Berlin", "2026-03-01T00:00:00Z", "2026-03-10T00:00:00Z"))
        .containsExactly(
            "2026-03-02T08:00:00Z", "2026-03-02T11:00:00Z", "2026-03-03T08:00:00Z",
            "2026-03-04T08:00:00Z", "2026-03-04T11:00:00Z", "2026-03-05T08:00:00Z");
  }

  @Test
  void floatingRecurringEventsFollowTheCalendarZoneAcrossDst() {
    List<Occurrence> occurrences = expand("""
        BEGIN:VEVENT
        UID:f
        DTSTAMP:20260101T000000Z
        DTSTART:20260328T080000
        DTEND:20260328T083000
        RRULE:FREQ=DAILY;COUNT=2
        SUMMARY:A - B - Floating
        END:VEVENT
        """, "Europe/Berlin", "2026-03-27T00:00:00Z", "2026-04-01T00:00:00Z");
    assertThat(occurrences).extracting(Occurrence::start).containsExactly("2026-03-28T07:00:00Z", "2026-03-29T06:00:00Z");
    assertThat(occurrences).allMatch(Occurrence::floating);
  }

  @Test
  void yearlyAllDayEventsStayOnTheirDate() {
    List<Occurrence> occurrences = expand("""
        BEGIN:VEVENT
        UID:birthday
        DTSTAMP:20260101T000000Z
        DTSTART;VALUE=DATE:20200229
        DTEND;VALUE=DATE:20200301
        RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1
        SUMMARY:Private - Family - Birthday
        END:VEVENT
        """, "Europe/Berlin", "2026-01-01T00:00:00Z", "2028-12-31T00:00:00Z");
    assertThat(occurrences).extracting(Occurrence::startLocal).containsExactly("2026-03-01", "2027-03-01", "2028-03-01");
    assertThat(occurrences).extracting(Occurrence::start).containsExactly(
        "2026-02-28T23:00:00Z", "2027-02-28T23:00:00Z", "2028-02-29T23:00:00Z");
  }

  @Test
  void aCancelledEventAndAnOccurrenceMovedIntoTheRangeFromOutside() {
    String events = """
        BEGIN:VEVENT
        UID:gone
        DTSTAMP:20260101T000000Z
        DTSTART:20260310T100000Z
        DTEND:20260310T110000Z
        STATUS:CANCELLED
        SUMMARY:A - B - Gone
        END:VEVENT
        BEGIN:VEVENT
        UID:w
        DTSTAMP:20260101T000000Z
        DTSTART:20260302T100000Z
        DTEND:20260302T110000Z
        RRULE:FREQ=WEEKLY;COUNT=5
        SUMMARY:A - B - Weekly
        END:VEVENT
        BEGIN:VEVENT
        UID:w
        DTSTAMP:20260101T000000Z
        RECURRENCE-ID:20260330T100000Z
        DTSTART:20260320T100000Z
        DTEND:20260320T110000Z
        SUMMARY:A - B - Weekly (early)
        END:VEVENT
        """;
    assertThat(starts(events, "UTC", "2026-03-15T00:00:00Z", "2026-03-25T00:00:00Z"))
        .containsExactly("2026-03-16T10:00:00Z", "2026-03-20T10:00:00Z", "2026-03-23T10:00:00Z");
    assertThat(starts(events, "UTC", "2026-03-28T00:00:00Z", "2026-04-01T00:00:00Z")).isEmpty();
    assertThat(starts(events, "UTC", "2026-03-10T00:00:00Z", "2026-03-11T00:00:00Z")).isEmpty();
  }
}
