package dev.roundhouse.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code roundhouse schedule}: groups the schedule and scheduler commands. Not thread-safe (picocli command). */
@Command(
    name = "schedule",
    description = "List, show, add, change, pause, resume and delete schedules; preview their firings, list their runs,"
        + " and see the scheduler's health.",
    mixinStandardHelpOptions = true,
    subcommands = {
      ScheduleListCommand.class,
      ScheduleShowCommand.class,
      ScheduleAddCommand.class,
      ScheduleUpdateCommand.class,
      ScheduleActionCommand.Pause.class,
      ScheduleActionCommand.Resume.class,
      ScheduleActionCommand.Delete.class,
      SchedulePreviewCommand.class,
      ScheduleRunsCommand.class,
      ScheduleStatusCommand.class
    })
final class ScheduleCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }
}
