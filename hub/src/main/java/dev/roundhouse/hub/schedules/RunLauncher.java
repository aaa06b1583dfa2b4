package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.api.BoardApi.TaskCreate;
import dev.roundhouse.hub.api.TurnApi.TurnStart;
import dev.roundhouse.hub.api.TurnApi.TurnView;
import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.store.StoreWriter;
import dev.roundhouse.hub.turns.TurnRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Starts runs: mints a task for a {@link RunSpec} (inside the caller's write, so it commits with whatever
 * claimed the run) with the prompt queued as its first message, then starts its turn through the runner.
 *
 * <p>Stateless apart from its collaborators; thread-safe.
 */
final class RunLauncher {
  /** The tag every task a run mints carries, so the board can tell them apart. */
  static final String TAG = "run";

  private final Board board;
  private final TurnRunner runner;

  RunLauncher(Board board, TurnRunner runner) {
    this.board = board;
    this.runner = runner;
  }

  /** Creates the run's task, in progress, with the prompt queued; inside {@code w}'s transaction. */
  Task mint(StoreWriter w, Actor actor, RunSpec spec, String title, String description) {
    List<String> tags = new ArrayList<>(spec.tags());
    if (!tags.contains(TAG)) {
      tags.add(TAG);
    }
    Task task = board.createTask(w, actor, new TaskCreate(
        String.valueOf(spec.projectId()), title, description, TaskStatus.IN_PROGRESS, spec.priority(), tags, null, false,
        spec.driver(), null, null, null));
    w.runner().enqueue(task.id(), spec.prompt(), spec.driver(), actor, w.now());
    return task;
  }

  /**
   * Starts the turn that runs the task's queued prompt. {@code alsoInWrite} runs in the transaction that records
   * the turn (and may throw to refuse the start).
   */
  TurnView start(Actor actor, long task, RunSpec spec, boolean unattended, BiConsumer<StoreWriter, Turn> alsoInWrite) {
    Locks.assertNoneHeld("starting a run's turn");
    return runner.start(actor,
        new TurnStart(task, null, spec.driver(), spec.model(), spec.permissionMode(), unattended, spec.sendContext()),
        alsoInWrite);
  }
}
