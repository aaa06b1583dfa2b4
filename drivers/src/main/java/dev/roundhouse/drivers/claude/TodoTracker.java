package dev.roundhouse.drivers.claude;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.spi.TurnEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Follows Claude Code's to-do list through its planning tools and says, each time the CLI confirms a change,
 * what the whole list now is (a {@link TurnEvent.Plan}). A call counts only once its {@code tool_result} says
 * it succeeded: the CLI refuses a planning tool it has not enabled for the session, and a refused call changes
 * no plan.
 *
 * <ul>
 *   <li>{@code TodoWrite {todos: [{content, status, priority?}]}}: the whole list, replaced (older CLIs, and
 *       sessions where it is enabled);
 *   <li>{@code TaskCreate {subject}}: one more entry, {@code pending}, under the id the result's {@code
 *       tool_use_result.task.id} gives it; {@code TaskUpdate {taskId, status?, subject?}}: that entry changed,
 *       or removed when its status is {@code deleted} (Claude Code 2.1.332 offers these when its to-do tools
 *       are on, {@code CLAUDE_CODE_ENABLE_TODO_TOOLS=1}).
 * </ul>
 *
 * <p>Only the main agent's calls count (a subagent's list is its own). The list lives as long as the CLI
 * process: a resumed session starts with an empty one until its next planning call.
 *
 * <p>Not thread-safe: one per CLI process, fed by one thread.
 */
final class TodoTracker {
  static final String TODO_WRITE = "TodoWrite";
  static final String TASK_CREATE = "TaskCreate";
  static final String TASK_UPDATE = "TaskUpdate";

  private record Call(String tool, JsonNode input) {}

  private final Map<String, Call> pendingCalls = new HashMap<>();
  private final Map<String, TurnEvent.PlanEntry> entries = new LinkedHashMap<>();

  /** Remembers a tool call of the main agent when it is a planning tool. */
  void called(String callId, String tool, JsonNode input) {
    if (tool.equals(TODO_WRITE) || tool.equals(TASK_CREATE) || tool.equals(TASK_UPDATE)) {
      pendingCalls.put(callId, new Call(tool, input));
    }
  }

  /**
   * The plan after the call {@code callId} finished, when it was a planning call that succeeded and changed
   * the list; {@code details} is the line's {@code tool_use_result}.
   */
  Optional<TurnEvent.Plan> finished(String callId, boolean isError, JsonNode details) {
    Call call = pendingCalls.remove(callId);
    if (call == null || isError) {
      return Optional.empty();
    }
    boolean changed = switch (call.tool()) {
      case TODO_WRITE -> replace(call.input().path("todos"));
      case TASK_CREATE -> create(call.input(), details);
      case TASK_UPDATE -> update(call.input());
      default -> false;
    };
    return changed ? Optional.of(new TurnEvent.Plan(new ArrayList<>(entries.values()))) : Optional.empty();
  }

  private boolean replace(JsonNode todos) {
    if (!todos.isArray()) {
      return false;
    }
    entries.clear();
    int index = 0;
    for (JsonNode todo : todos) {
      String content = todo.path("content").asText("");
      if (!content.isBlank()) {
        entries.put("todo-" + index++, new TurnEvent.PlanEntry(content, status(todo.path("status")), priority(todo.path("priority"))));
      }
    }
    return true;
  }

  private boolean create(JsonNode call, JsonNode details) {
    String subject = call.path("subject").asText("");
    String id = details.path("task").path("id").asText("");
    if (subject.isBlank() || id.isEmpty()) {
      return false;
    }
    entries.put(id, new TurnEvent.PlanEntry(subject, "pending", null));
    return true;
  }

  private boolean update(JsonNode call) {
    String id = call.path("taskId").asText("");
    String status = call.path("status").asText("");
    if (status.equals("deleted")) {
      return entries.remove(id) != null;
    }
    TurnEvent.PlanEntry before = entries.get(id);
    String subject = call.path("subject").asText("");
    if (before == null && subject.isBlank()) {
      return false; // an entry this process never saw (a resumed session), and nothing to name it by
    }
    TurnEvent.PlanEntry after = new TurnEvent.PlanEntry(
        subject.isBlank() ? before.content() : subject,
        status.isEmpty() ? (before == null ? null : before.status()) : status(call.path("status")),
        before == null ? null : before.priority());
    entries.put(id, after);
    return !after.equals(before);
  }

  /** The contract's status for Claude Code's ({@code pending}, {@code in_progress}, {@code completed}). */
  private static String status(JsonNode status) {
    return switch (status.asText("")) {
      case "in_progress", "completed" -> status.asText();
      default -> "pending";
    };
  }

  private static String priority(JsonNode priority) {
    return switch (priority.asText("")) {
      case "high", "low" -> priority.asText();
      default -> null;
    };
  }
}
