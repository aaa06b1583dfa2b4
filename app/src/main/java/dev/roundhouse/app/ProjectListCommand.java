package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code roundhouse project list}: {@code project_list}. Not thread-safe (picocli command). */
@Command(name = "list", description = "List every project.", mixinStandardHelpOptions = true)
final class ProjectListCommand extends ClientCommand {

  ProjectListCommand(Context context) {
    super(context);
  }

  @Override
  void run(HubClient hub, PrintWriter out) {
    JsonNode answer = hub.call("project_list", null);
    if (json()) {
      printJson(out, answer);
      return;
    }
    JsonNode projects = answer.path("projects");
    if (projects.isEmpty()) {
      out.println("no projects; add one with: roundhouse project add NAME [PATH]");
      return;
    }
    Table table = new Table().row("ID", "NAME", "AGENT", "PATH");
    for (JsonNode project : projects) {
      table.row(
          project.path("id").asLong(),
          project.path("name").asText(),
          Texts.text(project, "default_agent", "-"),
          project.path("path").asText());
    }
    table.print(out);
  }
}
