package dev.roundhouse.app;

import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code roundhouse project add NAME [PATH]}: {@code project_create}. Not thread-safe (picocli command). */
@Command(name = "add", description = "Create a project for a repository folder.", mixinStandardHelpOptions = true)
final class ProjectAddCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "Unique project name, such as web.")
  String name;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "PATH",
      description = "The repository folder (default: the current directory); made absolute here.")
  String path;

  @Option(names = "--agent", paramLabel = "A", description = "Driver used when a task names none, such as claude.")
  String agent;

  @Option(names = "--context", paramLabel = "TEXT", description = "Context text given to every agent in this project.")
  String projectContext;

  ProjectAddCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    String folder = (path == null ? context.workingDirectory() : context.resolve(path)).toString();
    BoardApi.ProjectCreate input = new BoardApi.ProjectCreate(name, folder, agent, projectContext);
    if (json()) {
      printJson(out, hub.call("project_create", input));
      return;
    }
    Project project = hub.projectCreate(input);
    out.println("created project " + project.id() + " " + project.name() + " at " + project.path());
  }
}
