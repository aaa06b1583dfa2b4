package dev.roundhouse.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code roundhouse task}: groups the task commands. Not thread-safe (picocli command). */
@Command(
    name = "task",
    description = "File, list, show, change, move, delete tasks and revert edits; see, review and land their work.",
    mixinStandardHelpOptions = true,
    subcommands = {
      TaskAddCommand.class,
      TaskListCommand.class,
      TaskShowCommand.class,
      TaskUpdateCommand.class,
      TaskMoveCommand.class,
      TaskDeleteCommand.class,
      TaskRevertCommand.class,
      TaskWorkspaceCommand.class,
      TaskDiffCommand.class,
      TaskMergeCommand.class,
      TaskSyncCommand.class,
      TaskPrCommand.class,
      TaskReviewCommand.class,
      TaskReclaimCommand.class
    })
final class TaskCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }
}
