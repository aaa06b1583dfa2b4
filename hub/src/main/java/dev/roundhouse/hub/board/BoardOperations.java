package dev.roundhouse.hub.board;

import static dev.roundhouse.hub.ops.OperationAnnotations.CREATE;
import static dev.roundhouse.hub.ops.OperationAnnotations.DESTRUCTIVE;
import static dev.roundhouse.hub.ops.OperationAnnotations.READ;
import static dev.roundhouse.hub.ops.OperationAnnotations.UPDATE;

import dev.roundhouse.hub.api.BoardApi.BoardView;
import dev.roundhouse.hub.api.BoardApi.EditRef;
import dev.roundhouse.hub.api.BoardApi.NoInput;
import dev.roundhouse.hub.api.BoardApi.ProjectCreate;
import dev.roundhouse.hub.api.BoardApi.ProjectList;
import dev.roundhouse.hub.api.BoardApi.ProjectRef;
import dev.roundhouse.hub.api.BoardApi.ProjectUpdate;
import dev.roundhouse.hub.api.BoardApi.TagList;
import dev.roundhouse.hub.api.BoardApi.TagQuery;
import dev.roundhouse.hub.api.BoardApi.TagUpdate;
import dev.roundhouse.hub.api.BoardApi.TaskCreate;
import dev.roundhouse.hub.api.BoardApi.TaskDeleted;
import dev.roundhouse.hub.api.BoardApi.TaskEdits;
import dev.roundhouse.hub.api.BoardApi.TaskEditsQuery;
import dev.roundhouse.hub.api.BoardApi.TaskList;
import dev.roundhouse.hub.api.BoardApi.TaskListQuery;
import dev.roundhouse.hub.api.BoardApi.TaskMove;
import dev.roundhouse.hub.api.BoardApi.TaskMoved;
import dev.roundhouse.hub.api.BoardApi.TaskRef;
import dev.roundhouse.hub.api.BoardApi.TaskUpdate;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.Tag;

/** Registers the board's operations: one line of wiring each, the rules live in {@link Board}. */
public final class BoardOperations {
  private BoardOperations() {}

  public static void register(OperationRegistry registry, Board board) {
    registry.register(Operation.of(
        "project_create", "Create a project: a repository folder the hub works in.",
        ProjectCreate.class, Project.class, CREATE, board::createProject));
    registry.register(Operation.of(
        "project_list", "List every project, by name.",
        NoInput.class, ProjectList.class, READ, (actor, in) -> new ProjectList(board.projects())));
    registry.register(Operation.of(
        "project_get", "Read one project by id or name.",
        ProjectRef.class, Project.class, READ, (actor, in) -> board.project(in.project())));
    registry.register(Operation.of(
        "project_update", "Change a project's name, path, default agent or context.",
        ProjectUpdate.class, Project.class, UPDATE, board::updateProject));
    registry.register(Operation.of(
        "project_board",
        "A project's board: one column per status, each in board order (suggested first, then most"
            + " recently updated).",
        ProjectRef.class, BoardView.class, READ, (actor, in) -> board.board(in.project())));
    registry.register(Operation.of(
        "task_create", "File a task on a project's board. A task filed by an agent is a suggestion.",
        TaskCreate.class, Task.class, CREATE, board::createTask));
    registry.register(Operation.of(
        "task_get", "Read one task.",
        TaskRef.class, Task.class, READ, (actor, in) -> board.task(in.task())));
    registry.register(Operation.of(
        "task_list",
        "List tasks in board order, filtered by project, status, tag and text, a page at a time.",
        TaskListQuery.class, TaskList.class, READ, (actor, in) -> board.tasks(in)));
    registry.register(Operation.of(
        "task_update",
        "Change a task's fields; absent fields are kept. Every changed field is recorded as a revertable"
            + " edit.",
        TaskUpdate.class, Task.class, UPDATE, board::updateTask));
    registry.register(Operation.of(
        "task_move",
        "Move a set of tasks to a status and/or another project. A blocked_by edge survives a project"
            + " move only when both of its tasks move; the dropped edges are listed.",
        TaskMove.class, TaskMoved.class, UPDATE, board::moveTasks));
    registry.register(Operation.of(
        "task_delete", "Delete a task; tasks it blocked are unblocked.",
        TaskRef.class, TaskDeleted.class, DESTRUCTIVE, (actor, in) -> board.deleteTask(actor, in.task())));
    registry.register(Operation.of(
        "task_edits", "A task's recorded field edits, newest first, with who made them.",
        TaskEditsQuery.class, TaskEdits.class, READ,
        (actor, in) -> new TaskEdits(board.edits(in.task(), in.limit() == null ? 100 : Math.max(1, Math.min(in.limit(), 1000))))));
    registry.register(Operation.of(
        "task_revert_edit",
        "Undo one recorded edit, if the field still holds the value that edit wrote.",
        EditRef.class, Task.class, UPDATE, (actor, in) -> board.revertEdit(actor, in.edit())));
    registry.register(Operation.of(
        "tag_list", "List tags with how many tasks carry each (in one project, or everywhere).",
        TagQuery.class, TagList.class, READ, (actor, in) -> new TagList(board.tags(in.project()))));
    registry.register(Operation.of(
        "tag_update", "Rename a tag everywhere, or set its color or description.",
        TagUpdate.class, Tag.class, UPDATE, board::updateTag));
  }
}
