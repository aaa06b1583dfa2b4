package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse task workspace ID}: {@code task_workspace}, making (or repairing) the task's worktree and
 * branch now rather than at its first turn, and saying where it is, so a person can work in it. Not
 * thread-safe (picocli command).
 */
@Command(name = "workspace", description = "Make (or repair) a task's own worktree and branch now, and show where it is and its state.",
    mixinStandardHelpOptions = true)
final class TaskWorkspaceCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  long id;

  @Option(names = "--no-create", description = "Only show the workspace; do not make one.")
  boolean noCreate;

  TaskWorkspaceCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    JsonNode view = hub.call("task_workspace", WorkspaceInputs.of("task", id, "ensure", noCreate ? null : Boolean.TRUE));
    if (json()) {
      printJson(out, view);
      return;
    }
    JsonNode worktree = view.path("worktree");
    if (worktree.isMissingNode() || worktree.isNull()) {
      out.println("task " + id + " has no workspace" + (view.hasNonNull("note") ? ": " + view.path("note").asText() : ""));
      return;
    }
    String outcome = view.path("outcome").asText("");
    out.println("task " + id + (outcome.isEmpty() ? "" : " (" + outcome + ")") + " on " + worktree.path("branch").asText()
        + " from " + worktree.path("base_branch").asText());
    out.println("worktree   " + worktree.path("path").asText());
    if (!view.path("working_directory").asText().equals(worktree.path("path").asText())) {
      out.println("agent runs " + view.path("working_directory").asText());
    }
    JsonNode status = view.path("status");
    out.println("state      " + (status.path("clean").asBoolean() ? "clean" : status.path("entries").size() + " uncommitted")
        + ", " + status.path("ahead").asInt() + " ahead, " + status.path("behind").asInt() + " behind"
        + (view.hasNonNull("landed") ? ", landed by " + view.path("landed").asText() : ""));
    view.path("notes").forEach(note -> out.println("note       " + note.asText()));
  }
}
