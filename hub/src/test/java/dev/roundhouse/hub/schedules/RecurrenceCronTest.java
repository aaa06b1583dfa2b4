package dev.roundhouse.hub.schedules;

import static dev.roundhouse.hub.schedules.Firings.at;
import static dev.roundhouse.hub.schedules.Firings.preview;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** Five-field cron specifics: steps, ranges, names, the either-day rule, macros, rare days. */
class RecurrenceCronTest {
  @Test
  void stepsRangesAndLists() {
    assertThat(preview("*/20 9-10,17 * * *", "UTC", "2025-06-10T08:00Z", 8))
        .containsExactly("2025-06-10T09:00Z", "2025-06-10T09:20Z", "2025-06-10T09:40Z", "2025-06-10T10:00Z",
            "2025-06-10T10:20Z", "2025-06-10T10:40Z", "2025-06-10T17:00Z", "2025-06-10T17:20Z");
  }

  @Test
  void aNumberWithAStepRunsToTheEndOfTheField() {
    assertThat(preview("5/20 12 * * *", "UTC", "2025-06-10T00:00Z", 4))
        .containsExactly("2025-06-10T12:05Z", "2025-06-10T12:25Z", "2025-06-10T12:45Z", "2025-06-11T12:05Z");
  }

  @Test
  void monthAndDayNamesInAnyCase() {
    assertThat(preview("0 9 * jan,Jul MON", "UTC", "2025-06-10T00:00Z", 3))
        .containsExactly("2025-07-07T09:00Z", "2025-07-14T09:00Z", "2025-07-21T09:00Z");
  }

  @Test
  void whenBothDayFieldsAreRestrictedEitherMatches() {
    // the 13th, and every Friday; Friday 13 June fires once
    assertThat(preview("0 0 13 * FRI", "UTC", "2025-06-01T00:00Z", 6))
        .containsExactly("2025-06-06T00:00Z", "2025-06-13T00:00Z", "2025-06-20T00:00Z", "2025-06-27T00:00Z",
            "2025-07-04T00:00Z", "2025-07-11T00:00Z");
  }

  @Test
  void sundayIsZeroOrSeven() {
    assertThat(preview("0 10 * * 7", "UTC", "2025-06-10T00:00Z", 1)).containsExactly("2025-06-15T10:00Z");
    assertThat(preview("0 10 * * 0", "UTC", "2025-06-10T00:00Z", 1)).containsExactly("2025-06-15T10:00Z");
  }

  @Test
  void macros() {
    assertThat(preview("@daily", "Europe/Berlin", "2025-06-10T12:00+02:00", 1)).containsExactly("2025-06-11T00:00+02:00");
    assertThat(preview("@hourly", "UTC", "2025-06-10T12:00Z", 1)).containsExactly("2025-06-10T13:00Z");
    assertThat(preview("@weekly", "UTC", "2025-06-10T12:00Z", 1)).containsExactly("2025-06-15T00:00Z");
    assertThat(preview("@monthly", "UTC", "2025-06-10T12:00Z", 1)).containsExactly("2025-07-01T00:00Z");
    assertThat(preview("@yearly", "UTC", "2025-06-10T12:00Z", 1)).containsExactly("2026-01-01T00:00Z");
  }

  @Test
  void theLeapDayWaitsForTheNextLeapYear() {
    assertThat(preview("0 0 29 2 *", "UTC", "2024-03-01T00:00Z", 2)).containsExactly("2028-02-29T00:00Z", "2032-02-29T00:00Z");
  }

  @Test
  void firingsAreStrictlyAfterAndOnWholeMinutes() {
    Recurrence recurrence = Recurrence.parse("*/5 * * * *", ZoneId.of("UTC"));
    assertThat(recurrence.form()).isEqualTo(Recurrence.Form.CRON);
    assertThat(recurrence.next(at("2025-06-10T12:05Z"))).contains(at("2025-06-10T12:10Z"));
    assertThat(recurrence.next(at("2025-06-10T12:04:59.5Z"))).contains(at("2025-06-10T12:05Z"));
  }

  @Test
  void previewOfZeroIsEmpty() {
    assertThat(preview("* * * * *", "UTC", "2025-06-10T12:00Z", 0)).isEmpty();
  }
}
