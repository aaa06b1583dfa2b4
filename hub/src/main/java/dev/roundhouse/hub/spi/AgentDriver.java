package dev.roundhouse.hub.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One agent, normalised to the common turn-event contract. Implementations live in the {@code drivers}
 * module and never touch the store: they talk to the hub only through the {@link TurnContext}.
 *
 * <p>Implementations must be thread-safe: the runner may run turns of different tasks at once.
 */
public interface AgentDriver {

  /** A stable id, such as {@code claude}, {@code openai}, {@code script}; what tasks and projects name. */
  String id();

  DriverCapabilities capabilities();

  /**
   * Runs one turn on the calling virtual thread: answers {@link TurnRequest#message()}, emitting events
   * through the context, and returns when done. A driver that supports linger may then wait in {@link
   * TurnContext#awaitNextMessage()} and answer further messages in the same session before returning.
   * An exception ends the turn as failed, with its message recorded; a {@link TurnStoppedException}
   * ends it as stopped.
   */
  void run(TurnRequest request, TurnContext context) throws Exception;

  /** A cheap check: is the agent installed, does it have a login or key. */
  default AuthStatus authStatus() {
    return AuthStatus.ok("no check available");
  }

  /** A real round trip to the agent or its endpoint; says what is wrong in one sentence. */
  default AuthStatus verify() {
    return authStatus();
  }

  /**
   * Condenses a transcript (as plain text) into a summary that seeds the task's next generation; empty to
   * let the hub's extractive fallback do it.
   */
  default Optional<String> summarise(String transcript) {
    return Optional.empty();
  }

  /**
   * Files that can change this agent's permissions outside the hub's gate (its settings files), for the
   * settings-drift check before every turn. Paths may not exist.
   */
  default List<Path> settingsFiles(Path workingDirectory) {
    return List.of();
  }
}
