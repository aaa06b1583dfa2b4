package dev.roundhouse.app;

import dev.roundhouse.hub.model.Runbook;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Objects;

/** Human renderings of runbooks. Stateless; thread-safe. */
final class RunbookText {
  private RunbookText() {}

  /** {@code runbook 'triage' (3)}: how a runbook is named in one line. */
  static String name(Runbook runbook) {
    return "runbook '" + runbook.name() + "' (" + runbook.id() + ")";
  }

  /** The runbooks as a table: id, name, project, driver, priority, tags, the prompt's start. */
  static Table table(Iterable<Runbook> runbooks, Map<Long, String> projects) {
    Table table = new Table().row("ID", "NAME", "PROJECT", "DRIVER", "PRIORITY", "TAGS", "PROMPT");
    for (Runbook runbook : runbooks) {
      table.row(
          runbook.id(),
          runbook.name(),
          projects.getOrDefault(runbook.projectId(), Long.toString(runbook.projectId())),
          Objects.requireNonNullElse(runbook.driver(), "-"),
          runbook.priority().wireName(),
          String.join(",", runbook.tags()),
          Texts.abbreviate(runbook.prompt(), 60));
    }
    return table;
  }

  /** Every field of a runbook, then its prompt. */
  static void details(PrintWriter out, Runbook runbook, String projectName) {
    out.println(name(runbook));
    new Table()
        .row("project", projectName + " (" + runbook.projectId() + ")")
        .row("driver", Objects.requireNonNullElse(runbook.driver(), "- (the project's default)"))
        .row("model", Objects.requireNonNullElse(runbook.model(), "-"))
        .row("permission mode", Objects.requireNonNullElse(runbook.permissionMode(), "-"))
        .row("priority", runbook.priority().wireName())
        .row("tags", runbook.tags().isEmpty() ? "-" : String.join(", ", runbook.tags()))
        .row("send context", runbook.sendContext() ? "yes" : "no")
        .row("created", Texts.time(runbook.createdAt()) + " by " + Texts.or(runbook.createdBy(), "?"))
        .row("updated", Texts.time(runbook.updatedAt()))
        .print(out);
    out.println();
    out.println("prompt:");
    runbook.prompt().lines().forEach(line -> out.println("  " + line));
  }
}
