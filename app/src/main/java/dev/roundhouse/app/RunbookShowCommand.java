package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code roundhouse runbook show R}: {@code runbook_get}. Not thread-safe (picocli command). */
@Command(name = "show", description = "Show one runbook: its settings and prompt.", mixinStandardHelpOptions = true)
final class RunbookShowCommand extends ClientCommand {
  @Parameters(paramLabel = "RUNBOOK", description = "The runbook's id or name.")
  String runbook;

  @Option(names = "--project", paramLabel = "P", description = "The project (id or name), when several use the name.")
  String project;

  RunbookShowCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.RunbookRef ref = new ScheduleApi.RunbookRef(runbook, project);
    if (json()) {
      printJson(out, hub.call("runbook_get", ref));
      return;
    }
    Runbook found = hub.runbookGet(ref);
    RunbookText.details(out, found, TaskListCommand.projectNames(hub).getOrDefault(found.projectId(), "?"));
  }
}
