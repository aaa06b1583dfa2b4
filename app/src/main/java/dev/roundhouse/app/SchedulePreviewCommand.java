package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse schedule preview [S] [--recurrence RULE --zone Z] [--count N] [--from TIME]}:
 * {@code schedule_preview}, one line per firing with its wall-clock time and offset in the zone and the UTC
 * instant. Not thread-safe (picocli command).
 */
@Command(
    name = "preview",
    description = "The next firings of a schedule, or of --recurrence and --zone to try out, on the zone's wall clock.",
    mixinStandardHelpOptions = true)
final class SchedulePreviewCommand extends ClientCommand {
  @Parameters(arity = "0..1", paramLabel = "SCHEDULE", description = "The schedule's id or name; or give --recurrence and --zone.")
  String schedule;

  @Option(names = "--project", paramLabel = "P", description = "The project (id or name), when several use the schedule's name.")
  String project;

  @Option(names = "--recurrence", paramLabel = "RULE", description = ScheduleAddCommand.RECURRENCE)
  String recurrence;

  @Option(names = "--zone", paramLabel = "ZONE", description = "IANA time zone for --recurrence, such as Europe/Berlin.")
  String zone;

  @Option(names = "--count", paramLabel = "N", description = "How many firings (default 10, at most 500).")
  Integer count;

  @Option(names = "--from", paramLabel = "TIME", converter = StartTimes.class,
      description = "Firings after this time (default now): " + StartTimes.FORM + ".")
  Instant from;

  SchedulePreviewCommand(Context context) {
    super(context);
  }

  @Override
  void validate() {
    if (schedule != null && (recurrence != null || zone != null)) {
      throw new ParameterException(spec.commandLine(), "give a schedule, or --recurrence and --zone to try out, not both");
    }
    if (schedule == null && (recurrence == null || zone == null)) {
      throw new ParameterException(spec.commandLine(), "give a schedule, or --recurrence and --zone to try out");
    }
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.SchedulePreview input = new ScheduleApi.SchedulePreview(schedule, project, recurrence, zone, from, count);
    if (json()) {
      printJson(out, hub.call("schedule_preview", input));
      return;
    }
    ScheduleApi.Firings firings = hub.schedulePreview(input);
    if (firings.firings().isEmpty()) {
      out.println("no more firings of " + firings.recurrence() + " in " + firings.zone() + ": the recurrence has ended");
      return;
    }
    out.println("next " + Texts.count(firings.firings().size(), "firing") + " of " + firings.recurrence() + " in " + firings.zone() + ":");
    Table table = new Table();
    for (ScheduleApi.Firing firing : firings.firings()) {
      table.row("  " + ScheduleText.dayAndLocal(firing.at(), firings.zone()), Texts.time(firing.at()));
    }
    table.print(out);
  }
}
