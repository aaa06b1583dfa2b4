package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse runbook delete R}: {@code runbook_delete}, which the hub refuses while a schedule runs the
 * runbook (its message names the schedules; exit 1). Not thread-safe (picocli command).
 */
@Command(
    name = "delete",
    description = "Delete a runbook; refused while a schedule runs it. Tasks it minted stay.",
    mixinStandardHelpOptions = true)
final class RunbookDeleteCommand extends ClientCommand {
  @Parameters(paramLabel = "RUNBOOK", description = "The runbook's id or name.")
  String runbook;

  @Option(names = "--project", paramLabel = "P", description = "The project (id or name), when several use the name.")
  String project;

  RunbookDeleteCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.RunbookRef ref = new ScheduleApi.RunbookRef(runbook, project);
    if (json()) {
      printJson(out, hub.call("runbook_delete", ref));
      return;
    }
    ScheduleApi.RunbookDeleted deleted = hub.runbookDelete(ref);
    out.println("deleted runbook '" + deleted.name() + "' (" + deleted.runbook() + ")");
  }
}
