package dev.roundhouse.app;

import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code roundhouse task sync ID}: {@code task_sync}, bringing the base into the task's branch. Not thread-safe (picocli command). */
@Command(name = "sync", description = "Bring a task's base branch into the task's branch.", mixinStandardHelpOptions = true)
final class TaskSyncCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  TaskSyncCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    TaskMergeCommand.report(out, hub.call("task_sync", WorkspaceInputs.of("task", id)), json());
  }
}
