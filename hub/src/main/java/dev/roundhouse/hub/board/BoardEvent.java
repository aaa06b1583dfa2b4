package dev.roundhouse.hub.board;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.roundhouse.hub.events.HubEvent;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Tag;
import dev.roundhouse.hub.model.Task;
import java.util.List;

/** The events the board records; payloads as in docs/events.md. Immutable. */
sealed interface BoardEvent extends HubEvent {

  record ProjectCreated(Project project) implements BoardEvent {
    @Override
    public String type() {
      return "project.created";
    }
  }

  record ProjectUpdated(Project project, Project before) implements BoardEvent {
    @Override
    public String type() {
      return "project.updated";
    }
  }

  record TaskCreated(Task task) implements BoardEvent {
    @Override
    public String type() {
      return "task.created";
    }
  }

  /** One field a write changed, with the edit that records it. */
  record FieldChange(long edit, String field, JsonNode before, JsonNode after) {
    public FieldChange {
      before = before == null ? NullNode.instance : before;
      after = after == null ? NullNode.instance : after;
    }
  }

  /** @param foreignEdit true when an agent changed a task that is not its own; absent otherwise */
  record TaskUpdated(Task task, List<FieldChange> changes, Boolean foreignEdit) implements BoardEvent {
    @Override
    public String type() {
      return "task.updated";
    }
  }

  /** @param unblocked the tasks the deleted one was blocking */
  record TaskDeleted(Task task, List<Long> unblocked) implements BoardEvent {
    @Override
    public String type() {
      return "task.deleted";
    }
  }

  record EditReverted(long edit, String field) implements BoardEvent {
    @Override
    public String type() {
      return "task.edit_reverted";
    }
  }

  record TaskWithdrawn(String reason) implements BoardEvent {
    @Override
    public String type() {
      return "task.withdrawn";
    }
  }

  /** @param renamedFrom the tag's old name when the update renamed it; absent otherwise */
  record TagUpdated(Tag tag, String renamedFrom) implements BoardEvent {
    @Override
    public String type() {
      return "tag.updated";
    }
  }
}
