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
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task update ID}: {@code task_update}; only the fields given change, and each change is
 * recorded as a revertable edit. Not thread-safe (picocli command).
 */
@Command(
    name = "update",
    description = "Change a task's fields; the others are kept. Each change is a revertable edit.",
    mixinStandardHelpOptions = true)
final class TaskUpdateCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  @Option(names = "--title", paramLabel = "TITLE", description = "New title.")
  String title;

  @Option(names = "--description", paramLabel = "D", description = "New description; an empty string clears it.")
  String description;

  @Option(names = "--status", paramLabel = "S", converter = WireNames.Status.class, description = "New column: " + WireNames.STATUSES + ".")
  TaskStatus status;

  @Option(names = "--priority", paramLabel = "P", converter = WireNames.Level.class, description = "One of " + WireNames.PRIORITIES + ".")
  Priority priority;

  @Option(names = "--tag", paramLabel = "T", description = "Replaces the tags; repeat for several.")
  List<String> tags;

  @Option(names = "--clear-tags", description = "Remove every tag.")
  boolean clearTags;

  @Option(names = "--blocked-by", paramLabel = "ID", split = ",", description = "Replaces the blocked-by edges; repeat or comma-separate.")
  List<Long> blockedBy;

  @Option(names = "--clear-blocked-by", description = "Remove every blocked-by edge.")
  boolean clearBlockedBy;

  @Option(names = "--agent", paramLabel = "A", description = "Driver for this task; an empty string clears it.")
  String agent;

  @Option(names = "--branch", paramLabel = "B", description = "Branch or worktree; an empty string clears it.")
  String branch;

  @Option(names = "--accept", description = "Accept a task an agent suggested.")
  boolean accept;

  @Option(
      names = "--start-at",
      paramLabel = "TIME",
      converter = StartTimes.class,
      description = "Start the task's first turn by itself at this time: " + StartTimes.FORM + ".")
  Instant startAt;

  @Option(names = "--clear-start-at", description = "Remove the start time: the deferred start will not fire.")
  boolean clearStartAt;

  @Option(
      names = "--auto-start",
      negatable = true,
      description = "Start the task's first turn by itself once every blocked-by task is done or cancelled"
          + " (--no-auto-start: do not).")
  Boolean autoStart;

  TaskUpdateCommand(Context context) {
    super(context);
  }

  @Override
  void validate() {
    if (tags != null && clearTags) {
      throw new ParameterException(spec.commandLine(), "give --tag or --clear-tags, not both");
    }
    if (blockedBy != null && clearBlockedBy) {
      throw new ParameterException(spec.commandLine(), "give --blocked-by or --clear-blocked-by, not both");
    }
    if (startAt != null && clearStartAt) {
      throw new ParameterException(spec.commandLine(), "give --start-at or --clear-start-at, not both");
    }
    if (title == null && description == null && status == null && priority == null && tags == null && !clearTags
        && blockedBy == null && !clearBlockedBy && agent == null && branch == null && !accept && startAt == null
        && !clearStartAt && autoStart == null) {
      throw new ParameterException(
          spec.commandLine(),
          "say what to change: --title, --description, --status, --priority, --tag, --blocked-by, --agent, --branch,"
              + " --accept, --start-at, --clear-start-at or --auto-start");
    }
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    List<String> newTags = clearTags ? List.of() : tags;
    List<Long> newBlockers = clearBlockedBy ? List.of() : blockedBy;
    BoardApi.TaskUpdate input =
        new BoardApi.TaskUpdate(
            id, title, description, status, priority, newTags, newBlockers, accept ? Boolean.FALSE : null, agent, branch, startAt, autoStart,
            clearStartAt ? Boolean.TRUE : null);
    if (json()) {
      printJson(out, hub.call("task_update", input));
      return;
    }
    out.println("updated " + TaskText.summary(hub.taskUpdate(input)));
  }
}
