package dev.roundhouse.app;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code roundhouse task add --project P TITLE...}: {@code task_create}. Not thread-safe (picocli command). */
@Command(name = "add", description = "File a task on a project's board.", mixinStandardHelpOptions = true)
final class TaskAddCommand extends ClientCommand {
  @Option(names = "--project", required = true, paramLabel = "P", description = "Project id or name.")
  String project;

  @Parameters(arity = "1..*", paramLabel = "TITLE", description = "The title; several words are joined by spaces.")
  List<String> title;

  @Option(names = "--description", paramLabel = "D", description = "Longer description.")
  String description;

  @Option(
      names = "--status",
      paramLabel = "S",
      converter = WireNames.Status.class,
      description = "Column: " + WireNames.STATUSES + " (default backlog).")
  TaskStatus status;

  @Option(
      names = "--priority",
      paramLabel = "P",
      converter = WireNames.Level.class,
      description = "One of " + WireNames.PRIORITIES + " (default normal).")
  Priority priority;

  @Option(names = "--tag", paramLabel = "T", description = "A tag; repeat for several.")
  List<String> tags;

  @Option(names = "--blocked-by", paramLabel = "ID", split = ",", description = "A task that must finish first; repeat or comma-separate.")
  List<Long> blockedBy;

  @Option(names = "--agent", paramLabel = "A", description = "Driver for this task (default: the project's).")
  String agent;

  @Option(names = "--branch", paramLabel = "B", description = "Branch or worktree for this task.")
  String branch;

  @Option(
      names = "--start-at",
      paramLabel = "TIME",
      converter = StartTimes.class,
      description = "Start the task's first turn by itself at this time: " + StartTimes.FORM + ".")
  Instant startAt;

  @Option(
      names = "--auto-start",
      description = "Start the task's first turn by itself once every --blocked-by task is done or cancelled.")
  boolean autoStart;

  TaskAddCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    BoardApi.TaskCreate input =
        new BoardApi.TaskCreate(
            project, String.join(" ", title), description, status, priority, tags, blockedBy, null, agent, branch, startAt, autoStart ? Boolean.TRUE : null);
    if (json()) {
      printJson(out, hub.call("task_create", input));
      return;
    }
    out.println("created " + TaskText.summary(hub.taskCreate(input)));
  }
}
