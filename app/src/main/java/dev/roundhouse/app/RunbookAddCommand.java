package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code roundhouse runbook add NAME --project P --prompt TEXT}: {@code runbook_create}. Not thread-safe (picocli command). */
@Command(
    name = "add",
    description = "Save a prompt as a runbook, with the driver, model, permission mode, priority and tags of the tasks it mints.",
    mixinStandardHelpOptions = true)
final class RunbookAddCommand extends ClientCommand {
  @Parameters(paramLabel = "NAME", description = "Unique in the project.")
  String name;

  @Option(names = "--project", required = true, paramLabel = "P", description = "Project id or name.")
  String project;

  @Option(names = "--prompt", required = true, paramLabel = "TEXT", description = "The first message of every run.")
  String prompt;

  @Option(names = "--driver", paramLabel = "D", description = "Driver (default: the project's agent).")
  String driver;

  @Option(names = "--model", paramLabel = "M", description = "Model, when the driver offers several.")
  String model;

  @Option(names = "--permission-mode", paramLabel = "MODE", description = "The driver's permission mode for its runs.")
  String permissionMode;

  @Option(names = "--priority", paramLabel = "P", converter = WireNames.Level.class,
      description = "Priority of the tasks it mints: " + WireNames.PRIORITIES + " (default normal).")
  Priority priority;

  @Option(names = "--tag", paramLabel = "T", description = "A tag of the tasks it mints; repeat for several.")
  List<String> tags;

  @Option(names = "--send-context", negatable = true,
      description = "Give the agent the project's context text (the default; --no-send-context: do not).")
  Boolean sendContext;

  RunbookAddCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.RunbookCreate input =
        new ScheduleApi.RunbookCreate(project, name, prompt, driver, model, permissionMode, priority, tags, sendContext);
    if (json()) {
      printJson(out, hub.call("runbook_create", input));
      return;
    }
    out.println("created " + RunbookText.name(hub.runbookCreate(input)));
  }
}
