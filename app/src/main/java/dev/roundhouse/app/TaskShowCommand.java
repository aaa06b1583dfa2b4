package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.api.BoardApi;
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
  void run(HubClient hub, PrintWriter out) {
    JsonNode task = hub.call("task_get", new BoardApi.TaskRef(id));
    JsonNode history = hub.call("task_edits", new BoardApi.TaskEditsQuery(id, edits)).path("edits");
    if (json()) {
      ObjectNode both = Json.mapper().createObjectNode();
      both.set("task", task);
      both.set("edits", history);
      printJson(out, both);
      return;
    }
    String projectName =
        TaskListCommand.projectNames(hub).getOrDefault(task.path("project_id").asLong(), "?");
    TaskText.details(out, task, projectName);
    TaskText.edits(out, history);
  }
}
