package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.spi.DecisionDesk;

/**
 * Opens calendar proposals as decisions of kind {@value CalendarExtension#KIND} that belong to the project
 * and task of the turn that staged them: an agent ({@code agent:<task>}) stages for its task, whose project
 * is read through the hub's {@code task_get} operation, so {@code decision_list} by project and
 * {@code pending_by_project} count them. A proposal staged outside a task (the user, a client, the
 * scheduler) belongs to no project and no task.
 *
 * <p>Thread-safe: stateless beyond the desk and the registry, which are.
 */
final class ProposalDesk {
  private final DecisionDesk desk;
  private final OperationRegistry operations;

  ProposalDesk(DecisionDesk desk, OperationRegistry operations) {
    this.desk = desk;
    this.operations = operations;
  }

  /** Opens a pending proposal staged by {@code actor}. */
  Decision open(Actor actor, String title, JsonNode request) {
    Long task = actor.taskId();
    Long project = task == null ? null : operations.call("task_get", actor, new BoardApi.TaskRef(task), Task.class).projectId();
    return desk.open(actor, CalendarExtension.KIND, project, task, title, request, CalendarExtension.OPTIONS);
  }
}
