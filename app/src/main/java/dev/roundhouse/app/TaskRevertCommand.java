package dev.roundhouse.app;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task revert EDIT_ID}: {@code task_revert_edit}, undoing one recorded edit (see
 * {@code task show}). Not thread-safe (picocli command).
 */
@Command(
    name = "revert",
    description = "Undo one recorded edit, if the field still holds the value that edit wrote.",
    mixinStandardHelpOptions = true)
final class TaskRevertCommand extends ClientCommand {
  @Parameters(paramLabel = "EDIT_ID", description = "The edit id, as listed by: roundhouse task show ID.")
  long edit;

  TaskRevertCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (json()) {
      printJson(out, hub.call("task_revert_edit", new BoardApi.EditRef(edit)));
      return;
    }
    out.println("reverted edit " + edit + "; now " + TaskText.summary(hub.taskRevertEdit(edit)));
  }
}
