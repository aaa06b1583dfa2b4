package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Map;

/** Human renderings of tasks and their edits. Stateless; thread-safe. */
final class TaskText {
  private TaskText() {}

  /** Adds the header of {@link #row}. */
  static Table table() {
    return new Table().row("ID", "PROJECT", "STATUS", "PRIORITY", "TITLE", "TAGS");
  }

  /** One task as a row of {@link #table()}; {@code projects} maps project ids to names. */
  static void row(Table table, JsonNode task, Map<Long, String> projects) {
    long project = task.path("project_id").asLong();
    table.row(
        task.path("id").asLong(),
        projects.getOrDefault(project, Long.toString(project)),
        task.path("status").asText(),
        task.path("priority").asText(),
        (task.path("suggested").asBoolean() ? "(suggested) " : "") + Texts.abbreviate(task.path("title").asText(), 72),
        Texts.join(task.path("tags"), ","));
  }

  /** {@code task 12 [todo] Fix the build}: one line naming a task. */
  static String summary(JsonNode task) {
    return "task " + task.path("id").asLong() + " [" + task.path("status").asText() + "] " + task.path("title").asText();
  }

  /** Every field of a task, then its description. */
  static void details(PrintWriter out, JsonNode task, String projectName) {
    out.println("task " + task.path("id").asLong() + "  " + task.path("title").asText());
    Table fields =
        new Table()
            .row("project", projectName + " (" + task.path("project_id").asLong() + ")")
            .row("status", task.path("status").asText() + (task.path("suggested").asBoolean() ? " (suggested)" : ""))
            .row("priority", task.path("priority").asText())
            .row("tags", task.path("tags").isEmpty() ? "-" : Texts.join(task.path("tags"), ", "))
            .row("blocked by", task.path("blocked_by").isEmpty() ? "-" : Texts.join(task.path("blocked_by"), ", "))
            .row("agent", Texts.text(task, "agent", "-"))
            .row("branch", Texts.text(task, "branch", "-"));
    if (task.hasNonNull("start_at")) {
      fields.row("start at", Texts.time(task.get("start_at")));
    }
    fields
        .row("created", Texts.time(task.get("created_at")) + " by " + Texts.text(task, "created_by", "?"))
        .row("updated", Texts.time(task.get("updated_at")))
        .print(out);
    String description = Texts.text(task, "description", "");
    if (!description.isBlank()) {
      out.println();
      out.println("description:");
      description.lines().forEach(line -> out.println("  " + line));
    }
  }

  /** A task's edits, newest first, as returned by {@code task_edits}. */
  static void edits(PrintWriter out, JsonNode edits) {
    out.println();
    if (edits.isEmpty()) {
      out.println("edits: none");
      return;
    }
    out.println("edits (newest first; undo one with: roundhouse task revert EDIT_ID):");
    Table table = new Table().row("  EDIT", "AT", "BY", "FIELD", "BEFORE", "AFTER");
    for (JsonNode edit : edits) {
      String reverted = edit.hasNonNull("reverted_at")
          ? "  (reverted by " + Texts.text(edit, "reverted_by", "?") + ")"
          : "";
      table.row(
          "  " + edit.path("id").asLong(),
          Texts.time(edit.get("at")),
          Texts.text(edit, "actor", "?"),
          edit.path("field").asText(),
          Texts.abbreviate(Texts.value(edit.get("before")), 40),
          Texts.abbreviate(Texts.value(edit.get("after")), 40) + reverted);
    }
    table.print(out);
  }
}
