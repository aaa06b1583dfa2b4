package dev.roundhouse.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task show ID}: {@code task_get} and {@code task_edits}. With {@code --json} it prints
 * {@code {"task": <task_get>, "edits": <task_edits' edits>}}. Not thread-safe (picocli command).
 */
@Command(name = "show", description = "Show one task and its recorded edits.", mixinStandardHelpOptions = true)
final class TaskShowCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  @Option(names = "--edits", paramLabel = "N", description = "Show at most this many edits, newest first (default 20).")
  int edits = 20;

  TaskShowCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (json()) {
      ObjectNode both = Json.mapper().createObjectNode();
      both.set("task", hub.call("task_get", new BoardApi.TaskRef(id)));
      both.set("edits", hub.call("task_edits", new BoardApi.TaskEditsQuery(id, edits)).path("edits"));
      printJson(out, both);
      return;
    }
    Task task = hub.taskGet(id);
    BoardApi.TaskEdits history = hub.taskEdits(new BoardApi.TaskEditsQuery(id, edits));
    String projectName = TaskListCommand.projectNames(hub).getOrDefault(task.projectId(), "?");
    TaskText.details(out, task, projectName);
    TaskText.edits(out, history.edits());
  }
}
