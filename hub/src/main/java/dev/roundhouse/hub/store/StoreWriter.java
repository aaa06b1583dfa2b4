package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.Worker;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/** Changes inside the writer's transaction; reads see them at once. Used by the writer thread only. */
public interface StoreWriter extends StoreReader {
  /** The time this write happens at, from the store's clock. */
  Instant now();

  /** Inserts {@code project} (its id is ignored) and returns it with its new id. */
  Project insertProject(Project project);

  void updateProject(Project project);

  /** Inserts {@code task} with its tags and edges (its id is ignored) and returns it with its new id. */
  Task insertTask(Task task);

  /** Replaces the stored row, tags and edges of {@code task}. */
  void updateTask(Task task);

  void deleteTask(long id);

  /** Creates or changes a tag's presentation; null fields are left as they are. */
  void upsertTag(String name, String color, String description);

  /** Renames a tag everywhere it is used, merging into {@code to} if that tag exists. */
  void renameTag(String from, String to);

  long recordEdit(long task, Actor actor, String field, JsonNode before, JsonNode after, Instant at);

  void markEditReverted(long edit, Actor by, Instant at);

  /** Registers a hub process, or replaces its row. */
  void putWorker(Worker worker);

  /** Records a registered process's heartbeat (and its URL, once it listens); false when it has no row. */
  boolean beat(String worker, String url, Instant at);

  /** Removes a process's row (at its clean stop). */
  void removeWorker(String worker);

  /** Appends an event; it is published after this write's transaction commits. */
  Event append(EventDraft draft);

  /** Changes to turns, the message queue, decisions and rules. */
  @Override
  RunnerWrites runner();

  /** Changes to capability modules' records. */
  @Override
  ExtensionWrites extensions();

  /** Changes to runbooks, schedules and runs. */
  @Override
  ScheduleWrites schedules();

  /** Pruning finished tasks' events. */
  @Override
  RetentionWrites retention();
}
