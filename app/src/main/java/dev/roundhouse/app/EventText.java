package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One event as one line of text: sequence, time, type, actor, what it concerns and a short summary. Lines
 * are printed as events arrive, so columns have fixed widths rather than aligned ones. Stateless;
 * thread-safe.
 */
final class EventText {
  private EventText() {}

  static String line(JsonNode event) {
    String subject =
        event.hasNonNull("task_id")
            ? "task " + event.get("task_id").asLong()
            : event.hasNonNull("project_id") ? "project " + event.get("project_id").asLong() : "-";
    String line = String.format(
        "%6d  %-20s  %-20s  %-10s  %-12s  %s",
        event.path("seq").asLong(),
        Texts.time(event.get("at")),
        event.path("type").asText(),
        Texts.text(event, "actor", "?"),
        subject,
        summary(event.path("type").asText(), event.path("data")));
    return line.stripTrailing();
  }

  static String summary(String type, JsonNode data) {
    return switch (type) {
      case "task.created", "task.deleted" -> data.path("task").path("title").asText();
      case "task.updated" -> changes(data);
      case "task.edit_reverted" -> "edit " + data.path("edit").asLong() + " (" + data.path("field").asText() + ")";
      case "project.created", "project.updated" -> data.path("project").path("name").asText();
      case "tag.updated" -> data.path("tag").path("name").asText();
      default -> Texts.abbreviate(data.toString(), 100);
    };
  }

  private static String changes(JsonNode data) {
    List<String> parts = new ArrayList<>();
    for (JsonNode change : data.path("changes")) {
      parts.add(change.path("field").asText() + ": " + Texts.abbreviate(Texts.value(change.get("before")), 24)
          + " → " + Texts.abbreviate(Texts.value(change.get("after")), 24));
    }
    return Texts.abbreviate(String.join("; ", parts), 120);
  }
}
