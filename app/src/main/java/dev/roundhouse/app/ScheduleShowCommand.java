package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code roundhouse schedule show S}: {@code schedule_get}. Not thread-safe (picocli command). */
@Command(name = "show", description = "Show one schedule: what it runs, when, its policies and its last run.",
    mixinStandardHelpOptions = true)
final class ScheduleShowCommand extends ClientCommand {
  @Parameters(paramLabel = "SCHEDULE", description = "The schedule's id or name.")
  String schedule;

  @Option(names = "--project", paramLabel = "P", description = "The project (id or name), when several use the name.")
  String project;

  ScheduleShowCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.ScheduleRef ref = new ScheduleApi.ScheduleRef(schedule, project);
    if (json()) {
      printJson(out, hub.call("schedule_get", ref));
      return;
    }
    ScheduleApi.ScheduleView view = hub.scheduleGet(ref);
    ScheduleText.details(out, view, TaskListCommand.projectNames(hub).getOrDefault(view.schedule().projectId(), "?"));
  }
}
