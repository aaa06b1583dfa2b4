package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse schedule pause|resume|delete S}: the operation of that name on one schedule. Not thread-safe
 * (picocli command).
 */
abstract class ScheduleActionCommand extends ClientCommand {
  @Parameters(paramLabel = "SCHEDULE", description = "The schedule's id or name.")
  String schedule;

  @Option(names = "--project", paramLabel = "P", description = "The project (id or name), when several use the name.")
  String project;

  private final String operation;

  ScheduleActionCommand(Context context, String operation) {
    super(context);
    this.operation = operation;
  }

  @Override
  final void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.ScheduleRef ref = new ScheduleApi.ScheduleRef(schedule, project);
    if (json()) {
      printJson(out, hub.call(operation, ref));
      return;
    }
    out.println(act(hub, ref));
  }

  /** Calls the operation; returns the line to print. */
  abstract String act(RemoteHub hub, ScheduleApi.ScheduleRef ref);

  @Command(name = "pause", description = "Pause a schedule: it does not fire until resumed.", mixinStandardHelpOptions = true)
  static final class Pause extends ScheduleActionCommand {
    Pause(Context context) {
      super(context, "schedule_pause");
    }

    @Override
    String act(RemoteHub hub, ScheduleApi.ScheduleRef ref) {
      return "paused " + ScheduleText.name(hub.schedulePause(ref));
    }
  }

  @Command(
      name = "resume",
      description = "Resume a paused schedule from now: firings that came due while it was paused do not run.",
      mixinStandardHelpOptions = true)
  static final class Resume extends ScheduleActionCommand {
    Resume(Context context) {
      super(context, "schedule_resume");
    }

    @Override
    String act(RemoteHub hub, ScheduleApi.ScheduleRef ref) {
      Schedule resumed = hub.scheduleResume(ref);
      return "resumed " + ScheduleText.name(resumed) + "; next firing " + ScheduleText.next(resumed) + " (" + resumed.zone() + ")";
    }
  }

  @Command(
      name = "delete",
      description = "Delete a schedule and its run history; runs still going keep their tasks and turns.",
      mixinStandardHelpOptions = true)
  static final class Delete extends ScheduleActionCommand {
    Delete(Context context) {
      super(context, "schedule_delete");
    }

    @Override
    String act(RemoteHub hub, ScheduleApi.ScheduleRef ref) {
      ScheduleApi.ScheduleDeleted deleted = hub.scheduleDelete(ref);
      return "deleted schedule '" + deleted.name() + "' (" + deleted.schedule() + ")";
    }
  }
}
