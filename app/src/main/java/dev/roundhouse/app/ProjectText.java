package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;

/** Human renderings of projects. Stateless; thread-safe. */
final class ProjectText {
  private ProjectText() {}

  /** The project's fields, one per line. */
  static void details(PrintWriter out, JsonNode project) {
    out.println("project " + project.path("id").asLong() + "  " + project.path("name").asText());
    new Table()
        .row("path", Texts.text(project, "path", "-"))
        .row("agent", Texts.text(project, "default_agent", "-"))
        .row("created", Texts.time(project.get("created_at")))
        .row("updated", Texts.time(project.get("updated_at")))
        .print(out);
    String context = Texts.text(project, "context", "");
    if (!context.isBlank()) {
      out.println();
      out.println("context:");
      context.lines().forEach(line -> out.println("  " + line));
    }
  }
}
