package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code roundhouse schedule list}: {@code schedule_list} as a table, each next firing on its schedule's wall
 * clock. Not thread-safe (picocli command).
 */
@Command(
    name = "list",
    description = "List schedules: recurrence, zone, next firing (in the schedule's zone), paused, last run.",
    mixinStandardHelpOptions = true)
final class ScheduleListCommand extends ClientCommand {
  @Option(names = "--project", paramLabel = "P", description = "Only this project's (id or name).")
  String project;

  ScheduleListCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (json()) {
      printJson(out, hub.call("schedule_list", new ScheduleApi.ScheduleQuery(project)));
      return;
    }
    List<ScheduleApi.ScheduleView> schedules = hub.scheduleList(project);
    if (schedules.isEmpty()) {
      out.println("no schedules; add one with: roundhouse schedule add NAME --project P --runbook R --recurrence RULE --zone Z");
      return;
    }
    ScheduleText.table(schedules, TaskListCommand.projectNames(hub)).print(out);
  }
}
