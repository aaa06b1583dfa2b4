package dev.roundhouse.app;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse project show REF}: {@code project_get}, and as text also the task count per column
 * ({@code project_board}). Not thread-safe (picocli command).
 */
@Command(name = "show", description = "Show one project and its task counts.", mixinStandardHelpOptions = true)
final class ProjectShowCommand extends ClientCommand {
  @Parameters(paramLabel = "REF", description = "Project id or name.")
  String project;

  ProjectShowCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (json()) {
      printJson(out, hub.call("project_get", new BoardApi.ProjectRef(project)));
      return;
    }
    Project found = hub.projectGet(project);
    ProjectText.details(out, found);
    List<String> counts = new ArrayList<>();
    for (BoardApi.Column column : hub.projectBoard(Long.toString(found.id())).columns()) {
      if (!column.tasks().isEmpty()) {
        counts.add(column.tasks().size() + " " + column.status().wireName());
      }
    }
    out.println();
    out.println("tasks: " + (counts.isEmpty() ? "none" : String.join(", ", counts)));
  }
}
