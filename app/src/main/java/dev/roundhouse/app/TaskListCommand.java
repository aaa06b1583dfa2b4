package dev.roundhouse.app;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code roundhouse task list}: {@code task_list} in board order, with project names from
 * {@code project_list}. Not thread-safe (picocli command).
 */
@Command(name = "list", description = "List tasks in board order.", mixinStandardHelpOptions = true)
final class TaskListCommand extends ClientCommand {
  @Option(names = "--project", paramLabel = "P", description = "Only this project (id or name).")
  String project;

  @Option(
      names = "--status",
      paramLabel = "S",
      split = ",",
      converter = WireNames.Status.class,
      description = "Only these columns; repeat or comma-separate: " + WireNames.STATUSES + ".")
  List<TaskStatus> statuses;

  @Option(names = "--tag", paramLabel = "T", description = "Only tasks carrying this tag.")
  String tag;

  @Option(names = "--text", paramLabel = "X", description = "Case-insensitive match in title or description.")
  String text;

  @Option(names = "--limit", paramLabel = "N", description = "At most this many (default 200, at most 1000).")
  Integer limit;

  @Option(names = "--offset", paramLabel = "N", description = "Skip this many, for paging.")
  Integer offset;

  TaskListCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    BoardApi.TaskListQuery query = new BoardApi.TaskListQuery(project, statuses, tag, text, limit, offset);
    if (json()) {
      printJson(out, hub.call("task_list", query));
      return;
    }
    BoardApi.TaskList answer = hub.taskList(query);
    List<Task> tasks = answer.tasks();
    if (tasks.isEmpty()) {
      out.println("no tasks");
      return;
    }
    Map<Long, String> names = projectNames(hub);
    Table table = TaskText.table();
    tasks.forEach(task -> TaskText.row(table, task, names));
    table.print(out);
    if (answer.hasMore()) {
      int shown = tasks.size() + (offset == null ? 0 : offset);
      out.println("(more tasks match; see the next page with --offset " + shown + ")");
    }
  }

  static Map<Long, String> projectNames(RemoteHub hub) {
    Map<Long, String> names = new HashMap<>();
    for (Project project : hub.projectList()) {
      names.put(project.id(), project.name());
    }
    return names;
  }
}
