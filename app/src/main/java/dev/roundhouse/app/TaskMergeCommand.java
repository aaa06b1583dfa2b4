package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task merge ID}: {@code task_merge}, landing the task on its base (fast-forward or a merge
 * commit); a conflict changes nothing, names the files and exits 1. Not thread-safe (picocli command).
 */
@Command(name = "merge", description = "Land a task on its base branch (fast-forward, else a merge commit).", mixinStandardHelpOptions = true)
final class TaskMergeCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  @Option(names = "--ask-agent", description = "On a conflict, send the conflicting files to the task's agent to resolve.")
  boolean askAgent;

  TaskMergeCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    JsonNode view = hub.call("task_merge", WorkspaceInputs.of("task", id, "ask_agent", askAgent ? Boolean.TRUE : null));
    report(out, view, json());
  }

  /** Prints the result; a conflict or refusal exits 1 (after printing). */
  static void report(PrintWriter out, JsonNode view, boolean json) {
    if (json) {
      printJson(out, view);
    } else {
      out.println(WorkspaceInputs.mergeLine(view));
    }
    String outcome = view.path("result").path("outcome").asText();
    if (outcome.equals("CONFLICT") || outcome.equals("REFUSED")) {
      out.flush();
      throw new CliFailure(ExitCode.FAILED, outcome.toLowerCase(java.util.Locale.ROOT), view.path("result").path("message").asText(), null);
    }
  }
}
