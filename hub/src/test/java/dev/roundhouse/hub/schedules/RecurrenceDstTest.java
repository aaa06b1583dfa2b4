package dev.roundhouse.hub.schedules;

import static dev.roundhouse.hub.schedules.Firings.preview;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The DST rules of docs/schedules.md ("Recurrences"), for cron and RRULE alike, in a northern zone with the
 * change at 02:00 (America/New_York), one with the change at 02:00/03:00 (Europe/Berlin) and a southern one
 * (Australia/Sydney: DST starts in October, ends in April). Each case runs an equivalent cron and RRULE and
 * expects the same firings. Dates: New York changes on 2025-03-09 (02:00 EST to 03:00 EDT) and 2025-11-02
 * (02:00 EDT back to 01:00 EST); Berlin on 2025-03-30 (02:00 CET to 03:00 CEST) and 2025-10-26 (03:00 CEST back
 * to 02:00 CET); Sydney on 2025-04-06 (03:00 AEDT back to 02:00 AEST) and 2025-10-05 (02:00 AEST to 03:00 AEDT).
 */
class RecurrenceDstTest {
  private static final String NEW_YORK = "America/New_York";
  private static final String BERLIN = "Europe/Berlin";
  private static final String SYDNEY = "Australia/Sydney";

  /** Asserts that the cron expression and the RRULE both fire exactly at {@code expected}. */
  private static void bothFire(String cron, String rrule, String zone, String after, String... expected) {
    assertThat(preview(cron, zone, after, expected.length)).as(cron).containsExactly(expected);
    assertThat(preview(rrule, zone, after, expected.length)).as(rrule).containsExactly(expected);
  }

  // --- spring forward: a skipped wall time fires once, when the gap ends

  @Test
  void newYorkSkipped0230FiresAtTheEndOfTheGap() {
    bothFire("30 2 * * *", "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", NEW_YORK, "2025-03-07T12:00-05:00",
        "2025-03-08T02:30-05:00", "2025-03-09T03:00-04:00", "2025-03-10T02:30-04:00");
  }

  @Test
  void berlinSkipped0230FiresAtTheEndOfTheGap() {
    bothFire("30 2 * * *", "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", BERLIN, "2025-03-29T12:00+01:00",
        "2025-03-30T03:00+02:00", "2025-03-31T02:30+02:00");
  }

  @Test
  void sydneySkipped0230InOctoberFiresAtTheEndOfTheGap() {
    bothFire("30 2 * * *", "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", SYDNEY, "2025-10-04T12:00+10:00",
        "2025-10-05T03:00+11:00", "2025-10-06T02:30+11:00");
  }

  @Test
  void skippedTimesCollapseOntoOneFiringWithTheGapsEnd() {
    // 02:00 and 02:30 do not exist; they and the real 03:00 are one firing at 03:00 EDT
    bothFire("*/30 * * * *", "FREQ=MINUTELY;INTERVAL=30", NEW_YORK, "2025-03-09T01:00-05:00",
        "2025-03-09T01:30-05:00", "2025-03-09T03:00-04:00", "2025-03-09T03:30-04:00");
  }

  // --- fall back: a repeated wall time fires once, at the earlier offset

  @Test
  void newYorkRepeated0130FiresOnceAtTheEarlierOffset() {
    bothFire("30 1 * * *", "FREQ=DAILY;BYHOUR=1;BYMINUTE=30", NEW_YORK, "2025-11-01T12:00-04:00",
        "2025-11-02T01:30-04:00", "2025-11-03T01:30-05:00", "2025-11-04T01:30-05:00");
  }

  @Test
  void berlinRepeated0230FiresOnceAtTheEarlierOffset() {
    bothFire("30 2 * * *", "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", BERLIN, "2025-10-25T12:00+02:00",
        "2025-10-26T02:30+02:00", "2025-10-27T02:30+01:00");
  }

  @Test
  void sydneyRepeated0230InAprilFiresOnceAtTheEarlierOffset() {
    bothFire("30 2 * * *", "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", SYDNEY, "2025-04-05T12:00+11:00",
        "2025-04-06T02:30+11:00", "2025-04-07T02:30+10:00");
  }

  @Test
  void fromInsideTheRepeatedCopyADailyFiringWaitsForTheNextDay() {
    // 01:15 EST is the second 01:15; the day's 01:30 firing was at 01:30 EDT, an hour ago
    bothFire("30 1 * * *", "FREQ=DAILY;BYHOUR=1;BYMINUTE=30", NEW_YORK, "2025-11-02T01:15-05:00",
        "2025-11-03T01:30-05:00");
  }

  @Test
  void aRuleLimitedToTheRepeatedHourFiresInItsFirstCopyOnly() {
    // the hour is fixed, so this is a time-of-day rule: 01:00 and 01:30 once each
    bothFire("*/30 1 * * *", "FREQ=DAILY;BYHOUR=1;BYMINUTE=0,30", NEW_YORK, "2025-11-02T00:00-04:00",
        "2025-11-02T01:00-04:00", "2025-11-02T01:30-04:00", "2025-11-03T01:00-05:00");
  }

  // --- rules that fire throughout the day keep firing every real hour

  @Test
  void newYorkHourlyAcrossSpringForward() {
    bothFire("0 * * * *", "FREQ=HOURLY;BYMINUTE=0", NEW_YORK, "2025-03-09T00:30-05:00",
        "2025-03-09T01:00-05:00", "2025-03-09T03:00-04:00", "2025-03-09T04:00-04:00");
  }

  @Test
  void newYorkHourlyAcrossFallBackFiresInBothCopies() {
    bothFire("0 * * * *", "FREQ=HOURLY;BYMINUTE=0", NEW_YORK, "2025-11-02T00:30-04:00",
        "2025-11-02T01:00-04:00", "2025-11-02T01:00-05:00", "2025-11-02T02:00-05:00", "2025-11-02T03:00-05:00");
  }

  @Test
  void newYorkHalfHourlyAcrossFallBackFiresInBothCopies() {
    bothFire("*/30 * * * *", "FREQ=MINUTELY;INTERVAL=30", NEW_YORK, "2025-11-02T00:45-04:00",
        "2025-11-02T01:00-04:00", "2025-11-02T01:30-04:00", "2025-11-02T01:00-05:00", "2025-11-02T01:30-05:00",
        "2025-11-02T02:00-05:00");
  }

  @Test
  void fromInsideTheRepeatedCopyAnHourlyRuleFiresInThatCopy() {
    bothFire("*/30 * * * *", "FREQ=MINUTELY;INTERVAL=30", NEW_YORK, "2025-11-02T01:15-05:00",
        "2025-11-02T01:30-05:00", "2025-11-02T02:00-05:00");
  }

  @Test
  void berlinHourlyAcrossBothTransitions() {
    bothFire("0 * * * *", "FREQ=HOURLY;BYMINUTE=0", BERLIN, "2025-03-30T00:30+01:00",
        "2025-03-30T01:00+01:00", "2025-03-30T03:00+02:00", "2025-03-30T04:00+02:00");
    bothFire("0 * * * *", "FREQ=HOURLY;BYMINUTE=0", BERLIN, "2025-10-26T01:30+02:00",
        "2025-10-26T02:00+02:00", "2025-10-26T02:00+01:00", "2025-10-26T03:00+01:00", "2025-10-26T04:00+01:00");
  }

  @Test
  void sydneyHourlyAcrossBothTransitions() {
    bothFire("0 * * * *", "FREQ=HOURLY;BYMINUTE=0", SYDNEY, "2025-04-06T01:30+11:00",
        "2025-04-06T02:00+11:00", "2025-04-06T02:00+10:00", "2025-04-06T03:00+10:00", "2025-04-06T04:00+10:00");
    bothFire("0 * * * *", "FREQ=HOURLY;BYMINUTE=0", SYDNEY, "2025-10-05T00:30+10:00",
        "2025-10-05T01:00+10:00", "2025-10-05T03:00+11:00", "2025-10-05T04:00+11:00");
  }

  // --- weekday rules keep their wall time across the change

  @Test
  void berlinWeekdaysAt0700AcrossSpringForward() {
    bothFire("0 7 * * MON-FRI", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0", BERLIN, "2025-03-27T08:00+01:00",
        "2025-03-28T07:00+01:00", "2025-03-31T07:00+02:00", "2025-04-01T07:00+02:00");
  }

  @Test
  void newYorkWeekdaysAt0700AcrossFallBack() {
    bothFire("0 7 * * 1-5", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0", NEW_YORK, "2025-10-31T08:00-04:00",
        "2025-11-03T07:00-05:00", "2025-11-04T07:00-05:00");
  }

  @Test
  void sydneyWeekdaysAt0700AcrossBothChanges() {
    bothFire("0 7 * * mon-fri", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0", SYDNEY, "2025-04-04T08:00+11:00",
        "2025-04-07T07:00+10:00");
    bothFire("0 7 * * mon-fri", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0", SYDNEY, "2025-10-03T08:00+10:00",
        "2025-10-06T07:00+11:00");
  }

  @Test
  void aZoneWithoutDstIsPlain() {
    assertThat(preview("30 2 * * *", "UTC", "2025-03-30T00:00Z", 2))
        .isEqualTo(List.of("2025-03-30T02:30Z", "2025-03-31T02:30Z"));
  }
}
