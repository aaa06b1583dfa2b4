package dev.roundhouse.hub.turns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Duration settings are read by the one parser the CLI uses too, plus a bare number of seconds. */
class RunnerSettingsTest {
  private static Duration read(String value) {
    return RunnerSettings.duration(Map.of("ROUNDHOUSE_IDLE_TIMEOUT", value), "ROUNDHOUSE_IDLE_TIMEOUT", Duration.ZERO);
  }

  @Test
  void secondsUnitsAndCombinationsAreRead() {
    assertThat(read("90")).isEqualTo(Duration.ofSeconds(90));
    assertThat(read("20m")).isEqualTo(Duration.ofMinutes(20));
    assertThat(read("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(read("PT2H")).isEqualTo(Duration.ofHours(2));
    assertThat(RunnerSettings.duration(Map.of(), "ROUNDHOUSE_IDLE_TIMEOUT", Duration.ofMinutes(5))).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void anythingElseIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> read("soon")).isInstanceOf(RoundhouseException.InvalidInput.class)
        .hasMessage("ROUNDHOUSE_IDLE_TIMEOUT='soon' is not a duration such as 90s, 20m or 2h");
    assertThatThrownBy(() -> read("99999999999999999999")).isInstanceOf(RoundhouseException.InvalidInput.class);
  }
}
