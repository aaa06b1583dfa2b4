package dev.roundhouse.app;

import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskEdit;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Human renderings of tasks and their edits. Stateless; thread-safe. */
final class TaskText {
  private TaskText() {}

  /** Adds the header of {@link #row}. */
  static Table table() {
    return new Table().row("ID", "PROJECT", "STATUS", "PRIORITY", "TITLE", "TAGS");
  }

  /** One task as a row of {@link #table()}; {@code projects} maps project ids to names. */
  static void row(Table table, Task task, Map<Long, String> projects) {
    table.row(
        task.id(),
        projects.getOrDefault(task.projectId(), Long.toString(task.projectId())),
        task.status().wireName(),
        task.priority().wireName(),
        (task.suggested() ? "(suggested) " : "") + Texts.abbreviate(task.title(), 72),
        String.join(",", task.tags()));
  }

  /** {@code task 12 [todo] Fix the build}: one line naming a task. */
  static String summary(Task task) {
    return "task " + task.id() + " [" + task.status().wireName() + "] " + task.title();
  }

  /** Every field of a task, then its description. */
  static void details(PrintWriter out, Task task, String projectName) {
    out.println("task " + task.id() + "  " + task.title());
    Table fields =
        new Table()
            .row("project", projectName + " (" + task.projectId() + ")")
            .row("status", task.status().wireName() + (task.suggested() ? " (suggested)" : ""))
            .row("priority", task.priority().wireName())
            .row("tags", task.tags().isEmpty() ? "-" : String.join(", ", task.tags()))
            .row("blocked by", task.blockedBy().isEmpty() ? "-" : Texts.join(task.blockedBy(), ", "))
            .row("agent", Objects.requireNonNullElse(task.agent(), "-"))
            .row("branch", Objects.requireNonNullElse(task.branch(), "-"));
    if (task.startAt() != null) {
      fields.row("start at", Texts.time(task.startAt()));
    }
    if (task.autoStart()) {
      fields.row("auto start", "when every blocker is done or cancelled");
    }
    fields
        .row("created", Texts.time(task.createdAt()) + " by " + Texts.or(task.createdBy(), "?"))
        .row("updated", Texts.time(task.updatedAt()))
        .print(out);
    String description = Objects.requireNonNullElse(task.description(), "");
    if (!description.isBlank()) {
      out.println();
      out.println("description:");
      description.lines().forEach(line -> out.println("  " + line));
    }
  }

  /** A task's edits, newest first, as returned by {@code task_edits}. */
  static void edits(PrintWriter out, List<TaskEdit> edits) {
    out.println();
    if (edits.isEmpty()) {
      out.println("edits: none");
      return;
    }
    out.println("edits (newest first; undo one with: roundhouse task revert EDIT_ID):");
    Table table = new Table().row("  EDIT", "AT", "BY", "FIELD", "BEFORE", "AFTER");
    for (TaskEdit edit : edits) {
      String reverted = edit.revertedAt() != null ? "  (reverted by " + Texts.or(edit.revertedBy(), "?") + ")" : "";
      table.row(
          "  " + edit.id(),
          Texts.time(edit.at()),
          Texts.or(edit.actor(), "?"),
          edit.field(),
          Texts.abbreviate(Texts.value(edit.before()), 40),
          Texts.abbreviate(Texts.value(edit.after()), 40) + reverted);
    }
    table.print(out);
  }
}
