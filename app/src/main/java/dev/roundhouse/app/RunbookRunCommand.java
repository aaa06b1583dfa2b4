package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse runbook run R}: {@code runbook_run}, which mints a task and starts its first turn; prints the
 * task and the turn and returns while the turn runs in the hub. Waiting for the outcome is
 * {@code roundhouse run --runbook R --wait} ({@link RunCommand}). Not thread-safe (picocli command).
 */
@Command(
    name = "run",
    description = {
      "Mint a task from a runbook and start its first turn; prints the task and turn and returns while it runs.",
      "To wait for the outcome (and exit with it), use: roundhouse run --project P --runbook R --wait"
    },
    mixinStandardHelpOptions = true)
final class RunbookRunCommand extends ClientCommand {
  @Parameters(paramLabel = "RUNBOOK", description = "The runbook's id or name.")
  String runbook;

  @Option(names = "--project", paramLabel = "P", description = "The project (id or name), when several use the name.")
  String project;

  @Option(names = "--driver", paramLabel = "D", description = "Driver for this run instead of the runbook's.")
  String driver;

  @Option(names = "--model", paramLabel = "M", description = "Model for this run instead of the runbook's.")
  String model;

  @Option(names = "--unattended",
      description = "No one is watching: a permission that would ask is denied and recorded, a question fails the run.")
  boolean unattended;

  RunbookRunCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.RunbookRun input = new ScheduleApi.RunbookRun(runbook, project, driver, model, unattended ? Boolean.TRUE : null);
    if (json()) {
      printJson(out, hub.call("runbook_run", input));
      return;
    }
    ScheduleApi.RunStarted started = hub.runbookRun(input);
    out.println("started task " + started.task().id() + ", turn " + started.turn().id() + (unattended ? " (unattended)" : "")
        + ": " + started.task().title());
  }
}
