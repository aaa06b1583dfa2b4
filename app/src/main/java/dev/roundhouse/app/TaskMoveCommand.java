package dev.roundhouse.app;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task move ID...}: {@code task_move}, printing the moved tasks and every blocked-by edge
 * the move dropped. Not thread-safe (picocli command).
 */
@Command(
    name = "move",
    description = "Move tasks together to a column and/or another project; lists the blocked-by edges dropped.",
    mixinStandardHelpOptions = true)
final class TaskMoveCommand extends ClientCommand {
  @Parameters(arity = "1..*", paramLabel = "ID", description = "The tasks to move.")
  List<Long> ids;

  @Option(names = "--status", paramLabel = "S", converter = WireNames.Status.class, description = "New column: " + WireNames.STATUSES + ".")
  TaskStatus status;

  @Option(names = "--project", paramLabel = "P", description = "New project (id or name).")
  String project;

  TaskMoveCommand(Context context) {
    super(context);
  }

  @Override
  void validate() {
    if (status == null && project == null) {
      throw new ParameterException(spec.commandLine(), "say where to move: --status, --project, or both");
    }
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    BoardApi.TaskMove input = new BoardApi.TaskMove(ids, status, project);
    if (json()) {
      printJson(out, hub.call("task_move", input));
      return;
    }
    BoardApi.TaskMoved moved = hub.taskMove(input);
    out.println("moved " + Texts.count(moved.tasks().size(), "task") + ":");
    moved.tasks().forEach(task -> out.println("  " + TaskText.summary(task)));
    List<BoardApi.DroppedEdge> dropped = moved.droppedEdges() == null ? List.of() : moved.droppedEdges();
    if (!dropped.isEmpty()) {
      out.println("dropped " + Texts.count(dropped.size(), "blocked-by edge") + " (only one end moved):");
      dropped.forEach(edge -> out.println("  task " + edge.task() + " is no longer blocked by task " + edge.blockedBy()));
    }
  }
}
