package dev.roundhouse.app;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code roundhouse task delete ID}: {@code task_delete}. Not thread-safe (picocli command). */
@Command(name = "delete", description = "Delete a task; tasks it blocked are unblocked.", mixinStandardHelpOptions = true)
final class TaskDeleteCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  TaskDeleteCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (json()) {
      printJson(out, hub.call("task_delete", new BoardApi.TaskRef(id)));
      return;
    }
    BoardApi.TaskDeleted deleted = hub.taskDelete(id);
    out.println("deleted task " + deleted.task() + " " + deleted.title());
  }
}
