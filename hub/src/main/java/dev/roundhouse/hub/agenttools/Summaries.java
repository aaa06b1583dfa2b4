package dev.roundhouse.hub.agenttools;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.api.AgentToolsApi.MoveAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.ProjectsAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.TagAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.TagsAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.TaskAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.TasksAnswer;
import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.api.BoardApi.TagQuery;
import dev.roundhouse.hub.api.BoardApi.TagUpdate;
import dev.roundhouse.hub.api.BoardApi.TaskList;
import dev.roundhouse.hub.api.BoardApi.TaskListQuery;
import dev.roundhouse.hub.api.BoardApi.TaskMove;
import dev.roundhouse.hub.api.BoardApi.TaskMoved;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Tag;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The one-sentence summaries that open the agents' tools' answers: what the tool did or found, naming the
 * tool, so a model reading only the first line is never misled (an empty list says what was searched).
 * Thread-safe (reads the board only).
 */
final class Summaries {
  private final Board board;

  Summaries(Board board) {
    this.board = board;
  }

  TaskAnswer suggested(Task task) {
    return new TaskAnswer("suggest_task filed task " + task.id() + " '" + task.title() + "' in project "
        + projectName(task.projectId()) + " (" + task.status().wireName() + ") as a suggestion for the user to accept", task);
  }

  TaskAnswer task(Task task) {
    return new TaskAnswer("get_task: task " + task.id() + " '" + task.title() + "' is " + task.status().wireName()
        + " in project " + projectName(task.projectId()) + (task.suggested() ? ", a suggestion" : ""), task);
  }

  TasksAnswer tasks(TaskListQuery query, TaskList list) {
    String filters = filters(query);
    String summary = list.tasks().isEmpty()
        ? "list_tasks found no tasks" + filters
        : "list_tasks found " + count(list.tasks().size(), "task") + filters
            + (list.hasMore() ? "; more match: pass offset " + ((query.offset() == null ? 0 : query.offset()) + list.tasks().size()) : "");
    return new TasksAnswer(summary, list.tasks(), list.hasMore());
  }

  TaskAnswer updated(Actor actor, Task before, Task after) {
    List<String> changed = new ArrayList<>();
    if (!Objects.equals(before.title(), after.title())) {
      changed.add("title");
    }
    if (!Objects.equals(before.description(), after.description())) {
      changed.add("description");
    }
    if (before.status() != after.status()) {
      changed.add("status");
    }
    if (before.priority() != after.priority()) {
      changed.add("priority");
    }
    if (!before.tags().equals(after.tags())) {
      changed.add("tags");
    }
    if (!before.blockedBy().equals(after.blockedBy())) {
      changed.add("blocked_by");
    }
    String summary = changed.isEmpty()
        ? "update_task changed nothing on task " + after.id() + ": every field already held the value given"
        : "update_task changed " + String.join(", ", changed) + " of task " + after.id()
            + (actor.isAgent() && !actor.isAgentOf(after.id()) ? " (recorded as your edit; the user can revert it)" : "");
    return new TaskAnswer(summary, after);
  }

  MoveAnswer moved(TaskMove move, TaskMoved moved) {
    String where = move.status() != null && move.project() != null
        ? "to " + move.status().wireName() + " in project " + move.project()
        : move.status() != null ? "to " + move.status().wireName() : "to project " + move.project();
    String ids = moved.tasks().stream().map(t -> String.valueOf(t.id())).collect(Collectors.joining(", "));
    String edges = moved.droppedEdges().isEmpty()
        ? "no blocked_by edge was dropped"
        : "dropped blocked_by edges (only one end moved): " + moved.droppedEdges().stream()
            .map(e -> "task " + e.task() + " no longer waits on task " + e.blockedBy()).collect(Collectors.joining("; "));
    return new MoveAnswer("move_task moved " + (moved.tasks().size() == 1 ? "task " : "tasks ") + ids + " " + where + "; " + edges,
        moved.tasks(), moved.droppedEdges());
  }

  TaskAnswer withdrawn(Task task) {
    return new TaskAnswer("withdraw_suggestion withdrew suggestion " + task.id() + " '" + task.title()
        + "'; it stays on the board as cancelled, tagged '" + Board.WITHDRAWN + "'", task);
  }

  TagsAnswer tags(TagQuery query, List<Tag> tags) {
    String scope = query.project() == null ? "" : " in project " + query.project();
    return new TagsAnswer(tags.isEmpty()
        ? "list_tags found no tags" + scope
        : "list_tags found " + count(tags.size(), "tag") + scope + ": " + tags.stream().map(Tag::name).collect(Collectors.joining(", ")),
        tags);
  }

  TagAnswer tag(TagUpdate update, Tag tag) {
    return new TagAnswer("update_tag updated tag '" + tag.name() + "'"
        + (update.newName() != null && !tag.name().equals(update.name()) ? " (renamed from '" + update.name() + "')" : ""), tag);
  }

  ProjectsAnswer projects(List<Project> projects) {
    return new ProjectsAnswer(projects.isEmpty()
        ? "list_projects found no projects: the user has not created any yet"
        : "list_projects found " + count(projects.size(), "project") + ": "
            + projects.stream().map(p -> p.name() + " (" + p.id() + ")").collect(Collectors.joining(", ")),
        projects);
  }

  private String projectName(long id) {
    try {
      return board.project(String.valueOf(id)).name();
    } catch (RuntimeException e) {
      return String.valueOf(id);
    }
  }

  private static String filters(TaskListQuery query) {
    List<String> parts = new ArrayList<>();
    if (query.project() != null) {
      parts.add("project " + query.project());
    }
    if (query.status() != null && !query.status().isEmpty()) {
      parts.add("status " + query.status().stream().map(TaskStatus::wireName).collect(Collectors.joining(" or ")));
    }
    if (query.tag() != null) {
      parts.add("tag " + query.tag());
    }
    if (query.text() != null) {
      parts.add("text '" + query.text() + "'");
    }
    return parts.isEmpty() ? " on any board" : " for " + String.join(", ", parts);
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

}
