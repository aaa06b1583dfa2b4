package dev.roundhouse.hub.spi;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import java.nio.file.Path;
import java.util.List;

/**
 * A module that runs processes for tasks ends them when asked: the services module ends the dev services declared
 * for a task and the terminals opened in its working directory before the workspace module removes the task's
 * worktree. Registered through {@link ExtensionContext#stopTaskProcessesWith}; asked, in registration order, by
 * {@link ExtensionContext#stopTaskProcesses}.
 *
 * <p>Implementations must be thread-safe. Called on the asker's thread with no hub lock held and outside any store
 * write; they may block until the processes are gone.
 */
@FunctionalInterface
public interface TaskProcessStopper {

  /**
   * Ends every process the module runs for task {@code task} (an id: the task may be deleted already), or whose working directory is {@code folder} or below it,
   * and returns once they are gone: a sentence for each thing it ended ("stopped service web of project shop"), empty
   * when there was none.
   *
   * @throws RoundhouseException naming what could not be ended (the asker then keeps the folder)
   */
  List<String> stop(Actor actor, long task, Path folder);
}
