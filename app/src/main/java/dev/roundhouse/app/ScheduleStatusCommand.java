package dev.roundhouse.app;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/**
 * {@code roundhouse schedule status}: {@code scheduler_status}, the scheduler's health: on or off, last tick,
 * lag, next firing, active schedules, open runs, and whether it looks stuck. Not thread-safe (picocli command).
 */
@Command(
    name = "status",
    description = "The scheduler's health: on or off, last tick, lag, next firing, active schedules, and whether it looks stuck.",
    mixinStandardHelpOptions = true)
final class ScheduleStatusCommand extends ClientCommand {

  ScheduleStatusCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (json()) {
      printJson(out, hub.call("scheduler_status", new BoardApi.NoInput()));
      return;
    }
    ScheduleApi.SchedulerStatus status = hub.schedulerStatus();
    new Table()
        .row("scheduler", status.enabled() ? "on" : "off (switched off by configuration: ROUNDHOUSE_SCHEDULER=off)")
        .row("health", !status.enabled() ? "-" : status.stuck() ? "stuck: " + status.reason() : "ok")
        .row("last tick", status.lastTick() == null ? "none yet" : Texts.time(status.lastTick()) + " (took " + status.lastTickMillis() + " ms)")
        .row("lag", status.lagMillis() == 0 ? "0 (no firing is overdue)" : status.lagMillis() < 1000 ? status.lagMillis() + " ms" : status.lagMillis() / 1000 + " s")
        .row("next firing", status.nextFiring() == null ? "none" : Texts.time(status.nextFiring()))
        .row("active schedules", status.activeSchedules())
        .row("open runs", status.openRuns())
        .print(out);
  }
}
