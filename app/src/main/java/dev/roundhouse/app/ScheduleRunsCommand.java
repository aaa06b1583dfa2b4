package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.ScheduleRun;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse schedule runs S}: {@code schedule_runs}, newest first: when each firing was due (on the
 * schedule's wall clock), its status, its task and the reason. Not thread-safe (picocli command).
 */
@Command(
    name = "runs",
    description = "A schedule's runs, newest first: when each was due, how it ended (or why it was skipped), its task.",
    mixinStandardHelpOptions = true)
final class ScheduleRunsCommand extends ClientCommand {
  @Parameters(paramLabel = "SCHEDULE", description = "The schedule's id or name.")
  String schedule;

  @Option(names = "--project", paramLabel = "P", description = "The project (id or name), when several use the name.")
  String project;

  @Option(names = "--limit", paramLabel = "N", description = "At most this many (default 50, at most 1000).")
  Integer limit;

  ScheduleRunsCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.ScheduleRunsQuery query = new ScheduleApi.ScheduleRunsQuery(schedule, project, limit);
    if (json()) {
      printJson(out, hub.call("schedule_runs", query));
      return;
    }
    ScheduleApi.ScheduleRuns answer = hub.scheduleRuns(query);
    Schedule found = answer.schedule();
    if (answer.runs().isEmpty()) {
      out.println(ScheduleText.name(found) + " has no runs yet; next firing " + ScheduleText.next(found) + " (" + found.zone() + ")");
      return;
    }
    Table table = new Table().row("SCHEDULED", "STATUS", "TASK", "REASON");
    for (ScheduleRun run : answer.runs()) {
      table.row(
          ScheduleText.local(run.scheduledAt(), found.zone()),
          run.status(),
          run.taskId() == null ? "-" : run.taskId(),
          run.reason() == null ? "" : Texts.abbreviate(run.reason(), 500));
    }
    table.print(out);
  }
}
