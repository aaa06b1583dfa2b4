package dev.roundhouse.hub.board;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import dev.roundhouse.hub.model.Task;

/**
 * A task's editable fields by their wire names, for field-by-field edit records and their reversal.
 * Stateless.
 */
final class TaskFields {
  static final List<String> EDITABLE =
      List.of(
          "project_id", "title", "description", "status", "priority", "tags", "blocked_by",
          "suggested", "agent", "branch", "start_at", "auto_start");

  /** One field's change. */
  record Change(String field, JsonNode before, JsonNode after) {}

  private TaskFields() {}

  static List<Change> diff(Task before, Task after) {
    JsonNode from = Json.tree(before);
    JsonNode to = Json.tree(after);
    List<Change> changes = new ArrayList<>();
    for (String field : EDITABLE) {
      JsonNode a = from.get(field);
      JsonNode b = to.get(field);
      if (!Objects.equals(a, b)) {
        changes.add(new Change(field, a, b));
      }
    }
    return changes;
  }

  static JsonNode value(Task task, String field) {
    return Json.tree(task).get(field);
  }

  /** {@code task} with {@code field} set to {@code value} (null removes it). */
  static Task with(Task task, String field, JsonNode value) {
    ObjectNode tree = (ObjectNode) Json.tree(task);
    if (value == null || value.isNull()) {
      tree.remove(field);
    } else {
      tree.set(field, value);
    }
    try {
      return Json.mapper().treeToValue(tree, Task.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot apply " + field + " = " + value + ": " + e.getMessage(), e);
    }
  }
}
