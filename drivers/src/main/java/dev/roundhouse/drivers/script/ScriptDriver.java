package dev.roundhouse.drivers.script;

import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code script} driver: plays a JSON script instead of talking to an agent, for tests, benchmarks and
 * the demo. A message that is a JSON object with {@code steps} is the script; {@code script:NAME} plays a
 * bundled one (such as {@code script:demo}); anything else is echoed back ("You said: …"). The format is
 * described in {@code docs/drivers/script.md}.
 *
 * <p>A malformed script fails the turn with a message naming the step. With {@code "linger": true} the
 * session stays open after the result and plays each next message the same way.
 *
 * <p>Thread-safe: it holds no state; each turn gets a player of its own.
 */
public final class ScriptDriver implements AgentDriver {
  public static final String ID = "script";
  static final String MODEL = "script";

  private static final DriverCapabilities CAPABILITIES =
      new DriverCapabilities(
          "Script (tests and demo)",
          List.of(MODEL),
          List.of(),
          true,
          true,
          false,
          true,
          Set.of("Read", "Glob", "Grep"));

  @Override
  public String id() {
    return ID;
  }

  @Override
  public DriverCapabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public AuthStatus authStatus() {
    return AuthStatus.ok("built in; plays JSON scripts, needs no agent or key");
  }

  @Override
  public void run(TurnRequest request, TurnContext context) throws Exception {
    Script script = ScriptSource.forMessage(request.message());
    ScriptPlayer player = new ScriptPlayer(request.turnId(), context);
    String session = script.session() != null ? script.session() : "script-" + request.turnId();
    context.emit(new TurnEvent.SessionStarted(session, request.model() != null ? request.model() : MODEL));
    boolean linger = Boolean.TRUE.equals(script.linger());
    player.play(script);
    while (linger && !context.isStopped()) {
      Optional<String> next = context.awaitNextMessage();
      if (next.isEmpty()) {
        return;
      }
      Script nextScript = ScriptSource.forMessage(next.get());
      if (nextScript.linger() != null) {
        linger = nextScript.linger();
      }
      player.play(nextScript);
    }
  }
}
