package dev.roundhouse.app;

import dev.roundhouse.hub.model.Project;
import java.io.PrintWriter;
import java.util.Objects;

/** Human renderings of projects. Stateless; thread-safe. */
final class ProjectText {
  private ProjectText() {}

  /** The project's fields, one per line. */
  static void details(PrintWriter out, Project project) {
    out.println("project " + project.id() + "  " + project.name());
    new Table()
        .row("path", Objects.requireNonNullElse(project.path(), "-"))
        .row("agent", Objects.requireNonNullElse(project.defaultAgent(), "-"))
        .row("created", Texts.time(project.createdAt()))
        .row("updated", Texts.time(project.updatedAt()))
        .print(out);
    String context = Objects.requireNonNullElse(project.context(), "");
    if (!context.isBlank()) {
      out.println();
      out.println("context:");
      context.lines().forEach(line -> out.println("  " + line));
    }
  }
}
