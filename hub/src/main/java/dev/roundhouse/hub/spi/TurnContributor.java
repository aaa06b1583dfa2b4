package dev.roundhouse.hub.spi;

import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import java.util.Optional;
import java.util.Set;

/**
 * An extension's part in the turns of the tasks it owns (the calendar agent owns calendar conversations):
 * text added to each turn's context, and operations of its own that the task's agent may call as tools,
 * besides the agents' tools every agent gets. The hub knows nothing of what the text says; it asks every
 * registered contributor whether it owns a task and passes along what the owners give.
 *
 * <p>Registered through {@link ExtensionContext#contributeToTurns}. Implementations must be thread-safe: they
 * are called on turns' threads and on the threads of agents' MCP requests, never while the hub holds a lock
 * or a store write.
 */
public interface TurnContributor {

  /**
   * Whether turns of {@code task} get this contributor's context and tools. Called at the start of every
   * turn and on every MCP request of a task's agent, so it must be cheap (look at the task and project only).
   */
  boolean owns(Project project, Task task);

  /**
   * The names of operations an owned task's agent may call as tools (offered by in-process drivers and
   * listed to the agent's MCP session). Names no registered operation has are ignored.
   */
  Set<String> agentTools();

  /**
   * Text for the context of a turn of an owned task, computed at the turn's start (so it may say what time
   * it is); blank adds nothing. It may read files; an exception fails the turn with its message.
   */
  String turnContext(Project project, Task task);

  /**
   * The system prompt of an owned task's turns when they are not coding work (a calendar conversation):
   * a driver that writes its own instructions (the OpenAI-compatible driver's "You are a coding agent…")
   * uses this text in their place, with only its rules for using tools, and offers the agent the hub's
   * tools alone, none of its workspace tools (files, commands); a driver that cannot replace its agent's
   * own prompt adds it first. Empty (the default): a coding task. Computed at the turn's start, like
   * {@link #turnContext}; an exception fails the turn with its message.
   */
  default Optional<String> systemPrompt(Project project, Task task) {
    return Optional.empty();
  }
}
