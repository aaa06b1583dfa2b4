package dev.roundhouse.hub.spi;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.core.RoundhouseException;

/**
 * A module's veto on moving a task to another column: the workspace refuses an agent's "done" while the task's
 * work is stranded (uncommitted, or commits nothing covers). Registered through {@link
 * ExtensionContext#guardStatusChanges}; asked for every task whose status a write would change
 * ({@code task_update}, {@code task_move}, the agents' {@code update_task} and {@code move_task}), before the
 * write, so the guard decides which actors it applies to.
 *
 * <p>Implementations must be thread-safe. Called on the caller's thread, outside any store write and with no
 * lock held, so they may do I/O (read a repository); they must be quick enough for a request.
 */
@FunctionalInterface
public interface TaskStatusGuard {

  /**
   * Returns to allow the move; throws to refuse it, with a sentence naming what is in the way.
   *
   * @throws RoundhouseException.Conflict to refuse the move
   */
  void check(Actor actor, Project project, Task task, TaskStatus to);
}
