package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.model.MissedPolicy;
import dev.roundhouse.hub.model.OverlapPolicy;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse schedule update S}: {@code schedule_update}; only the fields given change, and a new
 * recurrence or zone recomputes the next firing from now. Not thread-safe (picocli command).
 */
@Command(
    name = "update",
    description = "Change a schedule; the fields not given are kept. A new recurrence or zone recomputes the next firing.",
    mixinStandardHelpOptions = true)
final class ScheduleUpdateCommand extends ClientCommand {
  @Parameters(paramLabel = "SCHEDULE", description = "The schedule's id or name.")
  String schedule;

  @Option(names = "--project", paramLabel = "P", description = "The project (id or name); only to find the schedule by name.")
  String project;

  @Option(names = "--name", paramLabel = "NAME", description = "New name, unique in the project.")
  String name;

  @Option(names = "--runbook", paramLabel = "R", description = "Run this runbook instead (clears the prompt).")
  String runbook;

  @Option(names = "--prompt", paramLabel = "TEXT", description = "Run this prompt instead (clears the runbook).")
  String prompt;

  @Option(names = "--recurrence", paramLabel = "RULE", description = ScheduleAddCommand.RECURRENCE)
  String recurrence;

  @Option(names = "--zone", paramLabel = "ZONE", description = "IANA time zone, such as Europe/Berlin.")
  String zone;

  @Option(names = "--missed", paramLabel = "POLICY", converter = WireNames.Missed.class, description = "One of " + WireNames.MISSED + ".")
  MissedPolicy missed;

  @Option(names = "--overlap", paramLabel = "POLICY", converter = WireNames.Overlap.class, description = "One of " + WireNames.OVERLAP + ".")
  OverlapPolicy overlap;

  ScheduleUpdateCommand(Context context) {
    super(context);
  }

  @Override
  void validate() {
    if (name == null && runbook == null && prompt == null && recurrence == null && zone == null && missed == null && overlap == null) {
      throw new ParameterException(spec.commandLine(),
          "say what to change: --name, --runbook, --prompt, --recurrence, --zone, --missed or --overlap");
    }
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.ScheduleUpdate input =
        new ScheduleApi.ScheduleUpdate(schedule, project, name, runbook, prompt, recurrence, zone, missed, overlap);
    if (json()) {
      printJson(out, hub.call("schedule_update", input));
      return;
    }
    Schedule updated = hub.scheduleUpdate(input);
    out.println("updated " + ScheduleText.name(updated) + "; next firing " + ScheduleText.next(updated) + " (" + updated.zone() + ")");
  }
}
