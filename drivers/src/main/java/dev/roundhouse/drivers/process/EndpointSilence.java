package dev.roundhouse.drivers.process;

import dev.roundhouse.hub.spi.TurnEvent;
import java.time.Duration;
import java.util.Optional;

/**
 * When to tell a person that an agent has gone quiet on its model endpoint, before the driver's endpoint
 * deadline ends the turn: once a quarter, half and three quarters of the deadline have passed in one silence,
 * so a 3-minute deadline gives at most three notices, 45 s apart, and a silence that ends gives none more.
 * Agent CLIs retry a failing endpoint for minutes without a word; without these, a transcript shows nothing.
 *
 * <p>Not thread-safe: the turn's thread feeds it.
 */
public final class EndpointSilence {
  private static final int PARTS = 4;

  private final String agent;
  private final Duration limit;
  private int announced;
  private Duration lastSilence = Duration.ZERO;

  /**
   * @param agent what the notice calls the agent ("Gemini CLI", "codex")
   * @param limit the endpoint deadline the driver enforces
   */
  public EndpointSilence(String agent, Duration limit) {
    this.agent = agent;
    this.limit = limit;
  }

  /** The agent was heard from (or waits on a person or a tool): a later silence is a new one. */
  public void heard() {
    announced = 0;
    lastSilence = Duration.ZERO;
  }

  /**
   * The notice due now that the agent has been silent for {@code silentFor}, if a new quarter of the deadline
   * passed since the last one; {@code lastSaid} is what the agent last said of its retries, or null. A silence
   * shorter than the one seen last time is a new silence.
   */
  public Optional<TurnEvent.EndpointSilent> due(Duration silentFor, String lastSaid) {
    if (silentFor.compareTo(lastSilence) < 0) {
      announced = 0;
    }
    lastSilence = silentFor;
    long limitMillis = Math.max(1, limit.toMillis());
    int part = (int) Math.min(PARTS - 1, silentFor.toMillis() * PARTS / limitMillis);
    if (part <= announced) {
      return Optional.empty();
    }
    announced = part;
    Duration left = limit.minus(silentFor);
    if (left.isNegative()) {
      left = Duration.ZERO;
    }
    String text = agent + " has had no answer from its model for " + words(silentFor)
        + (lastSaid == null || lastSaid.isBlank() ? " (it is probably retrying the endpoint)" : " (it last said: " + lastSaid + ")")
        + "; the turn ends if none comes within " + words(left) + ".";
    return Optional.of(new TurnEvent.EndpointSilent(silentFor.toSeconds(), left.toSeconds(), text));
  }

  /** "45 s", "2 min", "2 min 15 s". */
  static String words(Duration duration) {
    long seconds = duration.toSeconds();
    if (seconds < 60) {
      return seconds + " s";
    }
    long minutes = seconds / 60;
    long rest = seconds % 60;
    return minutes + " min" + (rest == 0 ? "" : " " + rest + " s");
  }
}
