package dev.roundhouse.drivers.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.spi.TurnEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointSilenceTest {
  private final EndpointSilence silence = new EndpointSilence("Gemini CLI", Duration.ofMinutes(3));

  @Test
  void aSilenceIsAnnouncedAtAQuarterHalfAndThreeQuartersOfTheDeadlineOnce() {
    List<TurnEvent.EndpointSilent> notices = new ArrayList<>();
    for (int second = 0; second < 180; second += 5) {
      silence.due(Duration.ofSeconds(second), null).ifPresent(notices::add);
    }

    assertThat(notices).extracting(TurnEvent.EndpointSilent::silentSeconds).containsExactly(45L, 90L, 135L);
    assertThat(notices).extracting(TurnEvent.EndpointSilent::endsInSeconds).containsExactly(135L, 90L, 45L);
    assertThat(notices.get(0).text()).isEqualTo("Gemini CLI has had no answer from its model for 45 s"
        + " (it is probably retrying the endpoint); the turn ends if none comes within 2 min 15 s.");
  }

  @Test
  void aJumpPastSeveralMarksGivesOneNoticeAndWhatTheAgentLastSaidIsQuoted() {
    assertThat(silence.due(Duration.ofSeconds(100), "Reconnecting... 2/5").orElseThrow().text())
        .contains("for 1 min 40 s (it last said: Reconnecting... 2/5)");
    assertThat(silence.due(Duration.ofSeconds(120), null)).isEmpty();
  }

  @Test
  void aNewSilenceIsAnnouncedAgainButAShortOneNever() {
    assertThat(silence.due(Duration.ofSeconds(50), null)).isPresent();
    silence.heard();
    assertThat(silence.due(Duration.ofSeconds(40), null)).as("under a quarter").isEmpty();
    assertThat(silence.due(Duration.ofSeconds(46), null)).isPresent();
    assertThat(silence.due(Duration.ofSeconds(10), null)).as("a shorter silence is a new one").isEmpty();
    assertThat(silence.due(Duration.ofSeconds(45), null)).isPresent();
  }

  @Test
  void noticesStopBeforeTheDeadline() {
    assertThat(silence.due(Duration.ofSeconds(179), null).orElseThrow().silentSeconds()).isEqualTo(179);
    assertThat(silence.due(Duration.ofSeconds(400), null)).isEmpty();
  }
}
