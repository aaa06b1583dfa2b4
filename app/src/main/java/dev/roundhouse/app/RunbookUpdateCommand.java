package dev.roundhouse.app;

import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse runbook update R}: {@code runbook_update}; only the fields given change. Not thread-safe
 * (picocli command).
 */
@Command(name = "update", description = "Change a runbook; the fields not given are kept.", mixinStandardHelpOptions = true)
final class RunbookUpdateCommand extends ClientCommand {
  @Parameters(paramLabel = "RUNBOOK", description = "The runbook's id or name.")
  String runbook;

  @Option(names = "--project", paramLabel = "P", description = "The project (id or name); only to find the runbook by name.")
  String project;

  @Option(names = "--name", paramLabel = "NAME", description = "New name, unique in the project.")
  String name;

  @Option(names = "--prompt", paramLabel = "TEXT", description = "New prompt.")
  String prompt;

  @Option(names = "--driver", paramLabel = "D", description = "New driver; an empty string: the project's default.")
  String driver;

  @Option(names = "--model", paramLabel = "M", description = "New model; an empty string clears it.")
  String model;

  @Option(names = "--permission-mode", paramLabel = "MODE", description = "New permission mode; an empty string clears it.")
  String permissionMode;

  @Option(names = "--priority", paramLabel = "P", converter = WireNames.Level.class, description = "One of " + WireNames.PRIORITIES + ".")
  Priority priority;

  @Option(names = "--tag", paramLabel = "T", description = "Replaces the tags; repeat for several.")
  List<String> tags;

  @Option(names = "--clear-tags", description = "Remove every tag.")
  boolean clearTags;

  @Option(names = "--send-context", negatable = true,
      description = "Give the agent the project's context text (--no-send-context: do not).")
  Boolean sendContext;

  RunbookUpdateCommand(Context context) {
    super(context);
  }

  @Override
  void validate() {
    if (tags != null && clearTags) {
      throw new ParameterException(spec.commandLine(), "give --tag or --clear-tags, not both");
    }
    if (name == null && prompt == null && driver == null && model == null && permissionMode == null && priority == null
        && tags == null && !clearTags && sendContext == null) {
      throw new ParameterException(spec.commandLine(),
          "say what to change: --name, --prompt, --driver, --model, --permission-mode, --priority, --tag, --clear-tags"
              + " or --send-context");
    }
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    ScheduleApi.RunbookUpdate input = new ScheduleApi.RunbookUpdate(
        runbook, project, name, prompt, driver, model, permissionMode, priority, clearTags ? List.of() : tags, sendContext);
    if (json()) {
      printJson(out, hub.call("runbook_update", input));
      return;
    }
    out.println("updated " + RunbookText.name(hub.runbookUpdate(input)));
  }
}
