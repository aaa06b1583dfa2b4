package dev.roundhouse.hub.schedules;

import static dev.roundhouse.hub.schedules.Firings.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.ZoneId;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** Malformed recurrences are refused with a message that names what is wrong and where. */
class RecurrenceParseTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static AbstractThrowableAssert<?, ? extends Throwable> refused(String text) {
    return assertThatThrownBy(() -> Recurrence.parse(text, BERLIN)).isInstanceOf(RoundhouseException.InvalidInput.class);
  }

  @Test
  void theFormIsRruleWhenTheTextHasAnEqualsSign() {
    assertThat(Recurrence.parse("RRULE:FREQ=DAILY", BERLIN).form()).isEqualTo(Recurrence.Form.RRULE);
    assertThat(Recurrence.parse("0 7 * * *", BERLIN).form()).isEqualTo(Recurrence.Form.CRON);
    assertThat(Recurrence.parse("  0 7 * * *  ", BERLIN).text()).isEqualTo("0 7 * * *");
  }

  @Test
  void emptyText() {
    refused("  ").hasMessage("empty recurrence: give an RRULE (FREQ=...) or a five-field cron expression");
  }

  @Test
  void cronWithTheWrongNumberOfFields() {
    refused("0 7 * *").hasMessage(
        "cron \"0 7 * *\": expected five fields (minute hour day-of-month month day-of-week) but found 4; an RRULE needs FREQ=");
  }

  @Test
  void cronValueOutOfRange() {
    refused("0 25 * * *").hasMessage("cron \"0 25 * * *\": hour field \"25\": 25 is outside 0-23");
    refused("60 * * * *").hasMessage("cron \"60 * * * *\": minute field \"60\": 60 is outside 0-59");
    refused("0 0 0 * *").hasMessage("cron \"0 0 0 * *\": day-of-month field \"0\": 0 is outside 1-31");
  }

  @Test
  void cronBadTokenStepAndRange() {
    refused("0 0 * * FOO").hasMessage("cron \"0 0 * * FOO\": day-of-week field \"FOO\": \"FOO\" is not a number or name");
    refused("*/0 * * * *").hasMessage("cron \"*/0 * * * *\": minute field \"*/0\": step 0 must be at least 1");
    refused("0 0 * * FRI-MON").hasMessage(
        "cron \"0 0 * * FRI-MON\": day-of-week field \"FRI-MON\": range FRI-MON runs backwards; write it as two ranges");
    refused("0 0 1,,2 * *").hasMessage("cron \"0 0 1,,2 * *\": day-of-month field \"1,,2\" has an empty list entry");
    refused("0 0 * JAN-X *").hasMessage("cron \"0 0 * JAN-X *\": month field \"JAN-X\": \"X\" is not a number or name");
  }

  @Test
  void cronThatCanNeverFire() {
    refused("0 0 30 2 *").hasMessage("cron \"0 0 30 2 *\": day-of-month 30 never falls in month 2, so it never fires");
    refused("0 0 31 APR,JUN *").hasMessage("cron \"0 0 31 APR,JUN *\": day-of-month 31 never falls in month APR,JUN, so it never fires");
  }

  @Test
  void unknownCronMacro() {
    refused("@reboot").hasMessageStartingWith("cron \"@reboot\": @reboot is not a cron macro");
  }

  @Test
  void rruleWithoutOrWithABadFrequency() {
    refused("BYDAY=MO").hasMessage("RRULE \"BYDAY=MO\": FREQ is missing (FREQ=DAILY, WEEKLY, ...)");
    refused("FREQ=FORTNIGHTLY").hasMessage(
        "RRULE \"FREQ=FORTNIGHTLY\": FREQ=FORTNIGHTLY is not one of MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY");
    refused("FREQ=SECONDLY").hasMessage("RRULE \"FREQ=SECONDLY\": FREQ=SECONDLY is not supported: schedules fire at most once a minute");
    refused("FREQ=DAILY;BYSECOND=5").hasMessageContaining("BYSECOND is not supported");
  }

  @Test
  void rruleWithABadPart() {
    refused("FREQ=DAILY;;BYHOUR=1").hasMessage("RRULE \"FREQ=DAILY;;BYHOUR=1\": part \"\" is not NAME=VALUE");
    refused("FREQ=DAILY;FOO=1").hasMessageStartingWith("RRULE \"FREQ=DAILY;FOO=1\": unknown part FOO (known: FREQ,");
    refused("FREQ=DAILY;FREQ=WEEKLY").hasMessage("RRULE \"FREQ=DAILY;FREQ=WEEKLY\": FREQ is given twice");
    refused("FREQ=DAILY;INTERVAL=0").hasMessage("RRULE \"FREQ=DAILY;INTERVAL=0\": INTERVAL=0 is not a whole number in 1-2147483647");
  }

  @Test
  void rruleValueOutOfRange() {
    refused("FREQ=DAILY;BYHOUR=25").hasMessageStartingWith("RRULE \"FREQ=DAILY;BYHOUR=25\": ").hasMessageContaining("25");
    refused("FREQ=WEEKLY;BYDAY=XX").hasMessageStartingWith("RRULE \"FREQ=WEEKLY;BYDAY=XX\": ").hasMessageContaining("XX");
  }

  @Test
  void rruleCountAndUntil() {
    refused("FREQ=DAILY;COUNT=0").hasMessage("RRULE \"FREQ=DAILY;COUNT=0\": COUNT=0 is not a whole number in 1-1000");
    refused("FREQ=DAILY;COUNT=5000").hasMessage("RRULE \"FREQ=DAILY;COUNT=5000\": COUNT=5000 is not a whole number in 1-1000");
    refused("FREQ=DAILY;COUNT=2;UNTIL=20250101").hasMessage(
        "RRULE \"FREQ=DAILY;COUNT=2;UNTIL=20250101\": COUNT and UNTIL together: a rule ends one way or the other");
    refused("FREQ=DAILY;UNTIL=tomorrow").hasMessage("RRULE \"FREQ=DAILY;UNTIL=tomorrow\": UNTIL=TOMORROW is not a date (20260131), "
        + "a UTC time (20260131T090000Z) or a local time (20260131T090000)");
  }

  @Test
  void rruleThatCanNeverFire() {
    refused("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30").hasMessage(
        "RRULE \"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30\": never fires within 10 years of its anchor 2000-01-01T00:00");
  }

  @Test
  void previewCountOutOfRange() {
    Recurrence recurrence = Recurrence.parse("0 7 * * *", BERLIN);
    assertThatThrownBy(() -> recurrence.preview(at("2025-06-10T00:00Z"), -1))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessage("preview count -1 is outside 0-1000");
    assertThatThrownBy(() -> recurrence.preview(at("2025-06-10T00:00Z"), 1001))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessage("preview count 1001 is outside 0-1000");
  }
}
