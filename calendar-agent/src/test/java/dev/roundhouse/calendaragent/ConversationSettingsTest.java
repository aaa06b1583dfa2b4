package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.ZoneId;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The "conversation" object of calendars.json. */
class ConversationSettingsTest {
  private static ConversationSettings parse(String json) {
    return ConversationSettings.parse(json, "calendars.json");
  }

  @Test
  void aFileWithoutConversationSettingsGetsTheDefaults() {
    assertThat(parse("{\"calendars\": []}")).isEqualTo(ConversationSettings.DEFAULTS);
  }

  @Test
  void zoneClockAndProjectsAreRead() {
    assertThat(parse("{\"calendars\": [], \"conversation\": {\"zone\": \"America/New_York\", \"clock\": \"12h\", \"projects\": [\"life\"]}}"))
        .isEqualTo(new ConversationSettings(ZoneId.of("America/New_York"), true, Set.of("life")));
  }

  @Test
  void aWrongSettingIsRefusedNamingIt() {
    assertThatThrownBy(() -> parse("{\"conversation\": {\"zone\": \"Berlin\"}}"))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("zone 'Berlin' is not an IANA zone");
    assertThatThrownBy(() -> parse("{\"conversation\": {\"clock\": \"24\"}}"))
        .hasMessageContaining("clock '24' must be \"24h\" or \"12h\"");
    assertThatThrownBy(() -> parse("{\"conversation\": {\"timezone\": \"UTC\"}}"))
        .hasMessageContaining("unknown setting 'timezone'");
    assertThatThrownBy(() -> parse("{\"conversation\": {\"projects\": \"life\"}}"))
        .hasMessageContaining("projects must be an array");
  }
}
