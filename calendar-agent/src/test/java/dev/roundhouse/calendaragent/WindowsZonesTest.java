package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import org.junit.jupiter.api.Test;

/** The Windows zone table (CLDR) and the match of a calendar's own VTIMEZONE rules to an IANA zone. */
class WindowsZonesTest {
  @Test
  void everyWindowsNameOfTheTableIsAnIanaZoneOfThisJdk() {
    assertThat(WindowsZones.names()).hasSizeGreaterThan(130).contains("Eastern Standard Time", "W. Europe Standard Time", "UTC");
    for (String name : WindowsZones.names()) {
      assertThat(WindowsZones.iana(name)).as(name).isPresent();
    }
    assertThat(WindowsZones.iana("W. Europe Standard Time")).hasValue(ZoneId.of("Europe/Berlin"));
    assertThat(WindowsZones.iana("Pacific Standard Time")).hasValue(ZoneId.of("America/Los_Angeles"));
    assertThat(WindowsZones.iana("GMT Standard Time")).hasValue(ZoneId.of("Europe/London"));
    assertThat(WindowsZones.iana("Mars Standard Time")).isEmpty();
  }

  @Test
  void aTzidIsItselfWhenIanaMappedWhenWindowsAndUnknownOtherwise() {
    assertThat(WindowsZones.zone("America/New_York")).hasValue(ZoneId.of("America/New_York"));
    assertThat(WindowsZones.zone("Eastern Standard Time")).hasValue(ZoneId.of("America/New_York"));
    assertThat(WindowsZones.zone("Customized Time Zone")).isEmpty();
  }

  @Test
  void ownRulesMatchTheCldrZoneFirstAndNothingWhenNoZoneHasThem() {
    Instant march = Instant.parse("2026-03-05T12:00:00Z");
    assertThat(WindowsZones.sameRules(ZoneId.of("America/Detroit").getRules(), march)).hasValue(ZoneId.of("America/New_York"));
    assertThat(WindowsZones.sameRules(ZoneId.of("Asia/Kolkata").getRules(), march)).hasValue(ZoneId.of("Asia/Kolkata"));
    assertThat(WindowsZones.sameRules(ZoneRules.of(ZoneOffset.ofHoursMinutes(3, 17)), march)).isEmpty();
  }
}
