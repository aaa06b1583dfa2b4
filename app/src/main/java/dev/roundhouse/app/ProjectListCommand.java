package dev.roundhouse.app;

import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine.Command;

/** {@code roundhouse project list}: {@code project_list}. Not thread-safe (picocli command). */
@Command(name = "list", description = "List every project.", mixinStandardHelpOptions = true)
final class ProjectListCommand extends ClientCommand {

  ProjectListCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (json()) {
      printJson(out, hub.call("project_list", null));
      return;
    }
    List<Project> projects = hub.projectList();
    if (projects.isEmpty()) {
      out.println("no projects; add one with: roundhouse project add NAME [PATH]");
      return;
    }
    Table table = new Table().row("ID", "NAME", "AGENT", "PATH");
    for (Project project : projects) {
      table.row(project.id(), project.name(), Objects.requireNonNullElse(project.defaultAgent(), "-"), project.path());
    }
    table.print(out);
  }
}
