package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code roundhouse runbook list}: {@code runbook_list} as a table. Not thread-safe (picocli command). */
@Command(name = "list", description = "List runbooks by name, in one project or every project.", mixinStandardHelpOptions = true)
final class RunbookListCommand extends ClientCommand {
  @Option(names = "--project", paramLabel = "P", description = "Only this project's (id or name).")
  String project;

  RunbookListCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (json()) {
      printJson(out, hub.call("runbook_list", new ScheduleApi.RunbookQuery(project)));
      return;
    }
    List<Runbook> runbooks = hub.runbookList(project);
    if (runbooks.isEmpty()) {
      out.println("no runbooks; add one with: roundhouse runbook add NAME --project P --prompt TEXT");
      return;
    }
    RunbookText.table(runbooks, TaskListCommand.projectNames(hub)).print(out);
  }
}
