package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.api.BoardApi;
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
  void run(HubClient hub, PrintWriter out) {
    JsonNode found = hub.call("project_get", new BoardApi.ProjectRef(project));
    if (json()) {
      printJson(out, found);
      return;
    }
    ProjectText.details(out, found);
    JsonNode board = hub.call("project_board", new BoardApi.ProjectRef(found.path("id").asText()));
    List<String> counts = new ArrayList<>();
    for (JsonNode column : board.path("columns")) {
      if (!column.path("tasks").isEmpty()) {
        counts.add(column.path("tasks").size() + " " + column.path("status").asText());
      }
    }
    out.println();
    out.println("tasks: " + (counts.isEmpty() ? "none" : String.join(", ", counts)));
  }
}
