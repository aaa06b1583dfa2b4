package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.model.MissedPolicy;
import dev.roundhouse.hub.model.OverlapPolicy;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse schedule add NAME --project P (--runbook R | --prompt TEXT) --recurrence RULE --zone Z}:
 * {@code schedule_create}. The hub checks the recurrence, the zone and that exactly one of runbook and prompt is
 * given (exit 1 with its message). Not thread-safe (picocli command).
 */
@Command(
    name = "add",
    description = "Create a schedule that fires a runbook (or a prompt of its own) on an RRULE or five-field cron"
        + " recurrence in an IANA time zone; each firing mints a task and runs it unattended.",
    mixinStandardHelpOptions = true)
final class ScheduleAddCommand extends ClientCommand {
  static final String RECURRENCE = "An RFC 5545 RRULE (FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0)"
      + " or a five-field cron expression ('0 7 * * 1-5').";

  @Parameters(paramLabel = "NAME", description = "Unique in the project.")
  String name;

  @Option(names = "--project", required = true, paramLabel = "P", description = "Project id or name.")
  String project;

  @Option(names = "--runbook", paramLabel = "R", description = "The runbook each firing runs (id or name); give this or --prompt.")
  String runbook;

  @Option(names = "--prompt", paramLabel = "TEXT",
      description = "The prompt each firing runs with the project's default driver; give this or --runbook.")
  String prompt;

  @Option(names = "--recurrence", required = true, paramLabel = "RULE", description = RECURRENCE)
  String recurrence;

  @Option(names = "--zone", required = true, paramLabel = "ZONE",
      description = "IANA time zone of the wall-clock times, such as Europe/Berlin.")
  String zone;

  @Option(names = "--missed", paramLabel = "POLICY", converter = WireNames.Missed.class,
      description = "Firings missed while the hub was down: " + WireNames.MISSED + " (default skip).")
  MissedPolicy missed;

  @Option(names = "--overlap", paramLabel = "POLICY", converter = WireNames.Overlap.class,
      description = "A firing while the previous run still goes: " + WireNames.OVERLAP + " (default skip).")
  OverlapPolicy overlap;

  @Option(names = "--paused", description = "Create it paused.")
  boolean paused;

  ScheduleAddCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.ScheduleCreate input = new ScheduleApi.ScheduleCreate(
        project, name, runbook, prompt, recurrence, zone, missed, overlap, paused ? Boolean.TRUE : null);
    if (json()) {
      printJson(out, hub.call("schedule_create", input));
      return;
    }
    Schedule created = hub.scheduleCreate(input);
    out.println("created " + ScheduleText.name(created) + "; next firing " + ScheduleText.next(created) + " (" + created.zone() + ")");
  }
}
