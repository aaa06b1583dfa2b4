package dev.roundhouse.hub.schedules;

import static dev.roundhouse.hub.schedules.Firings.at;
import static dev.roundhouse.hub.schedules.Firings.preview;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RRULE specifics: month ends, INTERVAL and the anchor's phase, COUNT and UNTIL, the anchor's own firing. */
class RecurrenceRruleTest {
  @Test
  void lastDayOfTheMonthWithNegativeMonthDay() {
    assertThat(preview("FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=9;BYMINUTE=0", "America/New_York", "2024-01-15T00:00-05:00", 5))
        .containsExactly("2024-01-31T09:00-05:00", "2024-02-29T09:00-05:00", "2024-03-31T09:00-04:00",
            "2024-04-30T09:00-04:00", "2024-05-31T09:00-04:00");
  }

  @Test
  void lastDayOfTheMonthInTheSouthernHemisphere() {
    assertThat(preview("FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=23;BYMINUTE=30", "Australia/Sydney", "2025-02-01T00:00+11:00", 3))
        .containsExactly("2025-02-28T23:30+11:00", "2025-03-31T23:30+11:00", "2025-04-30T23:30+10:00");
  }

  @Test
  void theAnchorDecidesWhichWeeksOfAnIntervalFire() {
    String everyOtherMonday = "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0";
    assertThat(preview(everyOtherMonday, "Europe/Berlin", "2025-01-06T00:00+01:00", "2025-01-07T00:00+01:00", 2))
        .containsExactly("2025-01-20T09:00+01:00", "2025-02-03T09:00+01:00");
    assertThat(preview(everyOtherMonday, "Europe/Berlin", "2025-01-13T00:00+01:00", "2025-01-07T00:00+01:00", 2))
        .containsExactly("2025-01-13T09:00+01:00", "2025-01-27T09:00+01:00");
  }

  @Test
  void anIntervalKeepsItsPhaseAcrossDst() {
    assertThat(preview("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0", "Europe/Berlin", "2025-01-06T00:00+01:00",
        "2025-03-20T00:00+01:00", 2))
        .containsExactly("2025-03-31T09:00+02:00", "2025-04-14T09:00+02:00");
  }

  @Test
  void aRuleWithoutByHourFiresAtTheAnchorsTimeOfDayToTheMinute() {
    assertThat(preview("FREQ=DAILY;INTERVAL=3", "America/New_York", "2025-03-01T10:15:42-05:00", "2025-02-28T00:00-05:00", 4))
        .containsExactly("2025-03-01T10:15-05:00", "2025-03-04T10:15-05:00", "2025-03-07T10:15-05:00",
            "2025-03-10T10:15-04:00");
  }

  @Test
  void aFrequentRuleWithAnOldAnchorKeepsItsPhase() {
    // 2025-06-01T00:00Z is 13,367,520 minutes after the default anchor 2000-01-01T00:00, 5 past a multiple of 7
    assertThat(preview("FREQ=MINUTELY;INTERVAL=7", "UTC", "2025-06-01T00:00Z", 3))
        .containsExactly("2025-06-01T00:02Z", "2025-06-01T00:09Z", "2025-06-01T00:16Z");
  }

  @Test
  void aMinutelyRuleOnOneWeekdayFindsItAcrossTheWeek() {
    // a week of minutes without a candidate: more than ical4j's 1,000 empty periods in one expansion
    assertThat(preview("FREQ=MINUTELY;INTERVAL=1;BYDAY=MO;BYHOUR=9;BYMINUTE=0,1", "UTC", "2025-06-02T09:01Z", 2))
        .containsExactly("2025-06-09T09:00Z", "2025-06-09T09:01Z");
  }

  @Test
  void everyQuarterHourInOfficeHoursOnWeekdays() {
    assertThat(preview("FREQ=HOURLY;BYMINUTE=0,15,30,45;BYHOUR=9,10,11,12,13,14,15,16;BYDAY=MO,TU,WE,TH,FR", "Europe/Berlin",
        "2025-06-13T16:20+02:00", 4))
        .containsExactly("2025-06-13T16:30+02:00", "2025-06-13T16:45+02:00", "2025-06-16T09:00+02:00", "2025-06-16T09:15+02:00");
  }

  @Test
  void theAnchorIsNotAFiringUnlessTheRuleMatchesIt() {
    // anchor on a Wednesday; the rule fires on Mondays
    assertThat(preview("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0", "Europe/Berlin", "2025-01-08T09:00+01:00", "2025-01-01T00:00+01:00", 1))
        .containsExactly("2025-01-13T09:00+01:00");
  }

  @Test
  void countEndsTheRuleCountingFromTheAnchor() {
    String rule = "FREQ=DAILY;COUNT=3;BYHOUR=9;BYMINUTE=0";
    assertThat(preview(rule, "America/New_York", "2025-01-01T00:00-05:00", "2024-12-31T00:00-05:00", 5))
        .containsExactly("2025-01-01T09:00-05:00", "2025-01-02T09:00-05:00", "2025-01-03T09:00-05:00");
    assertThat(preview(rule, "America/New_York", "2025-01-01T00:00-05:00", "2025-01-02T12:00-05:00", 5))
        .containsExactly("2025-01-03T09:00-05:00");
    Recurrence recurrence = Recurrence.parse(rule, ZoneId.of("America/New_York"), at("2025-01-01T00:00-05:00"));
    assertThat(recurrence.next(at("2025-01-03T09:00-05:00"))).isEmpty();
  }

  @Test
  void untilInUtcIsTheLastInstantThatMayFire() {
    // 09:00 EST is 14:00Z: the third firing is exactly at UNTIL and fires
    assertThat(preview("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20250103T140000Z", "America/New_York", "2024-12-31T12:00-05:00", 5))
        .containsExactly("2025-01-01T09:00-05:00", "2025-01-02T09:00-05:00", "2025-01-03T09:00-05:00");
  }

  @Test
  void untilAsADateRunsThroughThatDay() {
    assertThat(preview("FREQ=DAILY;BYHOUR=23;BYMINUTE=0;UNTIL=20250102", "Europe/Berlin", "2024-12-31T12:00+01:00", 5))
        .containsExactly("2024-12-31T23:00+01:00", "2025-01-01T23:00+01:00", "2025-01-02T23:00+01:00");
  }

  @Test
  void untilAsALocalTimeIsReadOnTheWallClock() {
    assertThat(preview("FREQ=HOURLY;BYMINUTE=0;UNTIL=20250610T110000", "Europe/Berlin", "2025-06-10T08:30+02:00", 5))
        .containsExactly("2025-06-10T09:00+02:00", "2025-06-10T10:00+02:00", "2025-06-10T11:00+02:00");
  }

  @Test
  void theFirstFiringAfterAFiringIsTheNextOne() {
    Recurrence recurrence = Recurrence.parse("rrule:freq=daily;byhour=7;byminute=0", ZoneId.of("Europe/Berlin"));
    assertThat(recurrence.form()).isEqualTo(Recurrence.Form.RRULE);
    assertThat(recurrence.next(at("2025-06-10T07:00+02:00"))).contains(at("2025-06-11T07:00+02:00"));
    assertThat(recurrence.next(at("2025-06-10T06:59:59.999+02:00"))).contains(at("2025-06-10T07:00+02:00"));
  }

  @Test
  void yearlyOnTheLeapDayWaitsForLeapYears() {
    assertThat(preview("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=12;BYMINUTE=0", "UTC", "2024-03-01T00:00Z", 2))
        .containsExactly("2028-02-29T12:00Z", "2032-02-29T12:00Z");
  }

  @Test
  void lastFridayOfTheMonthWithSetPosition() {
    assertThat(preview("FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;BYHOUR=16;BYMINUTE=0", "Europe/Berlin", "2025-03-01T00:00+01:00", 2))
        .containsExactly("2025-03-28T16:00+01:00", "2025-04-25T16:00+02:00");
  }

  @Test
  void keptFiringsGiveTheSameAnswersWhateverWasAskedBefore() {
    String rule = "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=7,19;BYMINUTE=0";
    ZoneId sydney = ZoneId.of("Australia/Sydney");
    List<Instant> expected = Recurrence.parse(rule, sydney).preview(at("2025-03-01T00:00+11:00"), 80);
    Recurrence asked = Recurrence.parse(rule, sydney);
    asked.next(at("2026-01-01T00:00+11:00")); // keeps firings far ahead
    List<Instant> answers = new ArrayList<>();
    Instant cursor = at("2025-03-01T00:00+11:00");
    for (int i = 0; i < 80; i++) {
      asked.next(cursor.plusSeconds(86_400L * (i % 5))); // questions out of order, into and out of the kept batch
      cursor = asked.next(cursor).orElseThrow();
      answers.add(cursor);
    }
    assertThat(answers).isEqualTo(expected);
    assertThat(Firings.shown(asked, expected.subList(0, 3)))
        .containsExactly("2025-03-03T07:00+11:00", "2025-03-03T19:00+11:00", "2025-03-05T07:00+11:00");
  }
}
