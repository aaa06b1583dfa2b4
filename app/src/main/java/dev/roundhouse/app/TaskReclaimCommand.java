package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task reclaim ID}: {@code task_reclaim}, removing a landed task's worktree and branch; when
 * anything is in doubt everything is kept, the reason printed and the exit status 1. Not thread-safe (picocli
 * command).
 */
@Command(name = "reclaim", description = "Remove a landed task's worktree and branch (keeps everything when in doubt).", mixinStandardHelpOptions = true)
final class TaskReclaimCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  TaskReclaimCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    JsonNode view = hub.call("task_reclaim", WorkspaceInputs.of("task", id));
    JsonNode result = view.path("result");
    if (json()) {
      printJson(out, view);
    } else {
      out.println(result.path("outcome").asText().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ": " + result.path("reason").asText());
      for (JsonNode stopped : view.path("stopped")) {
        out.println("  ended first: " + stopped.asText());
      }
    }
    if (result.path("outcome").asText().equals("KEPT")) {
      out.flush();
      throw new CliFailure(ExitCode.FAILED, "kept", result.path("reason").asText(), null);
    }
  }
}
