package dev.roundhouse.hub.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.time.Instant;
import java.util.List;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Tag;
import dev.roundhouse.hub.model.TaskEdit;

/**
 * The wire contract of the board's operations: their inputs and outputs. The JSON schemas published for
 * the operations are derived from these records; field names are their snake_case forms.
 */
public final class BoardApi {
  private BoardApi() {}

  private static final String PROJECT_REF =
      "Project id, or its exact name (case-insensitive)";

  private static final String START_AT =
      "Start the task's first turn by itself at this instant (ISO-8601, such as 2030-01-02T09:00:00Z): a deferred"
          + " start, fired once, as the scheduler; a past instant starts at the next sweep";

  private static final String AUTO_START =
      "Start the task's first turn by itself once every blocked_by task is done or cancelled (and any start_at"
          + " has passed); fired once, as the scheduler";

  /** No arguments. */
  public record NoInput() {}

  public record ProjectCreate(
      @JsonProperty(required = true) @JsonPropertyDescription("Unique name, such as 'web'") String name,
      @JsonProperty(required = true) @JsonPropertyDescription("Absolute path of an existing folder")
          String path,
      @JsonPropertyDescription("Driver used when a task names none") String defaultAgent,
      @JsonPropertyDescription("Context text given to every agent in this project") String context) {}

  public record ProjectRef(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT_REF) String project) {}

  public record ProjectUpdate(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT_REF) String project,
      String name,
      String path,
      @JsonPropertyDescription("Empty string clears it") String defaultAgent,
      @JsonPropertyDescription("Empty string clears it") String context) {}

  public record ProjectList(List<Project> projects) {}

  public record TaskCreate(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT_REF) String project,
      @JsonProperty(required = true) String title,
      String description,
      @JsonPropertyDescription("Column; backlog when absent") TaskStatus status,
      @JsonPropertyDescription("normal when absent") Priority priority,
      List<String> tags,
      @JsonPropertyDescription("Ids of tasks in the same project that must finish first")
          List<Long> blockedBy,
      @JsonPropertyDescription("File as a suggestion; always true when an agent files it")
          Boolean suggested,
      String agent,
      String branch,
      @JsonPropertyDescription(START_AT) Instant startAt,
      @JsonPropertyDescription(AUTO_START) Boolean autoStart) {}

  public record TaskRef(@JsonProperty(required = true) long task) {}

  public record TaskListQuery(
      @JsonPropertyDescription(PROJECT_REF + "; all projects when absent") String project,
      @JsonPropertyDescription("Only these columns") List<TaskStatus> status,
      @JsonPropertyDescription("Only tasks carrying this tag") String tag,
      @JsonPropertyDescription("Case-insensitive match in title or description") String text,
      @JsonPropertyDescription("At most this many (default 200, at most 1000)") Integer limit,
      @JsonPropertyDescription("Skip this many, for paging") Integer offset) {}

  public record TaskList(
      List<Task> tasks, @JsonPropertyDescription("More tasks match past this page") boolean hasMore) {}

  public record TaskUpdate(
      @JsonProperty(required = true) long task,
      String title,
      @JsonPropertyDescription("Empty string clears it") String description,
      TaskStatus status,
      Priority priority,
      @JsonPropertyDescription("Replaces the tags") List<String> tags,
      @JsonPropertyDescription("Replaces the blocked_by edges") List<Long> blockedBy,
      Boolean suggested,
      @JsonPropertyDescription("Empty string clears it") String agent,
      @JsonPropertyDescription("Empty string clears it") String branch,
      @JsonPropertyDescription(START_AT) Instant startAt,
      @JsonPropertyDescription(AUTO_START) Boolean autoStart,
      @JsonPropertyDescription("true removes start_at: a deferred start that has not fired will not")
          Boolean clearStartAt) {}

  public record TaskMove(
      @JsonProperty(required = true) @JsonPropertyDescription("The tasks to move together")
          List<Long> tasks,
      @JsonPropertyDescription("New column") TaskStatus status,
      @JsonPropertyDescription("New project (" + PROJECT_REF + ")") String project) {}

  /** A {@code blocked_by} edge that a move dropped because only one of its ends moved. */
  public record DroppedEdge(long task, long blockedBy) {}

  public record TaskMoved(List<Task> tasks, List<DroppedEdge> droppedEdges) {}

  public record TaskDeleted(long task, String title) {}

  public record EditRef(@JsonProperty(required = true) long edit) {}

  public record TaskEditsQuery(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("At most this many, newest first (default 100)") Integer limit) {}

  public record TaskEdits(List<TaskEdit> edits) {}

  public record TagQuery(
      @JsonPropertyDescription("Count only tasks of this project (" + PROJECT_REF + ")")
          String project) {}

  public record TagList(List<Tag> tags) {}

  public record TagUpdate(
      @JsonProperty(required = true) String name,
      @JsonPropertyDescription("Rename the tag on every task; merges into an existing tag")
          String newName,
      @JsonPropertyDescription("Such as '#d73a4a'") String color,
      String description) {}

  public record Column(TaskStatus status, List<Task> tasks) {}

  public record BoardView(Project project, List<Column> columns) {}
}
