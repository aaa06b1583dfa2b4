package dev.roundhouse.hub.spi;

import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;

/**
 * A capability module's say in where a task's agent works (see {@link TurnPlace}): the workspace module moves
 * a task into its own git worktree, the services module adds the project's ports. Registered through {@link
 * ExtensionContext#placeTurns}; the hub asks every placer in registration order, each given what the ones
 * before it decided, before every turn starts (and whenever a face asks where a task works).
 *
 * <p>Implementations must be thread-safe. They are called on a turn's own thread (or a face's request
 * thread), never while the hub holds a lock or a store write, so they may do I/O and block (create or repair
 * a worktree). An exception fails the turn, its message the turn's failure reason, so it must be a sentence
 * naming what was wrong ("branch roundhouse/7-fix-login was deleted").
 */
@FunctionalInterface
public interface TurnPlacer {

  /**
   * Where turns of {@code task} run, given {@code place}: what the hub and the placers registered before this one
   * decided. Return {@code place} itself to change nothing.
   */
  TurnPlace place(Project project, Task task, TurnPlace place);
}
