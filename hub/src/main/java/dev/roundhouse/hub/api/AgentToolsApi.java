package dev.roundhouse.hub.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.api.BoardApi.DroppedEdge;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Tag;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The wire contract of the agents' tools. Every answer opens with {@code summary}: one sentence naming the
 * tool and what it did or found, never empty (see {@link AnswerGuard}).
 */
public final class AgentToolsApi {
  /** The agents' tools, by name: what a task-token MCP session lists and in-process drivers offer. */
  public static final Set<String> NAMES = Set.of(
      "suggest_task", "list_tasks", "get_task", "update_task", "move_task", "withdraw_suggestion",
      "list_tags", "update_tag", "list_projects", "ask_user", "create_runbook", "list_runbooks", "update_runbook");
  /**
   * The agents' tools that are an agent's name for a hub operation (agent name → hub name): one operation, the
   * actor's rules inside it. Agents are offered the first, people and external clients the second.
   */
  public static final Map<String, String> HUB_TWINS = Map.of(
      "get_task", "task_get", "list_tasks", "task_list", "update_task", "task_update", "move_task", "task_move",
      "list_tags", "tag_list", "update_tag", "tag_update", "list_projects", "project_list",
      "create_runbook", "runbook_create", "list_runbooks", "runbook_list", "update_runbook", "runbook_update");
  /** The agents' tools that wait for a person, as long as the person takes (no timeout). */
  public static final Set<String> WAIT_FOR_A_PERSON = Set.of("ask_user");

  private AgentToolsApi() {}

  private static final String PROJECT_REF = "Project id, or its exact name (case-insensitive)";
  private static final String SUMMARY = "One sentence naming the tool and what it did or found";

  /** An answer with its one-sentence summary. */
  public interface Answer {
    String summary();
  }

  public record SuggestTask(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT_REF + "; an unknown one is refused with the candidates")
          String project,
      @JsonProperty(required = true) String title,
      String description,
      @JsonPropertyDescription("normal when absent") Priority priority,
      List<String> tags,
      @JsonPropertyDescription("Ids of tasks in the same project that must finish first") List<Long> blockedBy) {}

  public record UpdateTask(
      @JsonProperty(required = true) long task,
      String title,
      @JsonPropertyDescription("Empty string clears it") String description,
      TaskStatus status,
      Priority priority,
      @JsonPropertyDescription("Replaces the tags") List<String> tags,
      @JsonPropertyDescription("Replaces the blocked_by edges") List<Long> blockedBy) {}

  public record WithdrawSuggestion(
      @JsonProperty(required = true) long task,
      @JsonProperty(required = true) @JsonPropertyDescription("Why the suggestion no longer holds; shown on the card")
          String reason) {}

  public record AskUser(
      @JsonProperty(required = true) @JsonPropertyDescription("The question, in one or two sentences") String question,
      @JsonPropertyDescription("Choices to offer; absent or empty for a free-text answer") List<String> options) {}

  public record TaskAnswer(@JsonPropertyDescription(SUMMARY) String summary, Task task) implements Answer {}

  public record TasksAnswer(
      @JsonPropertyDescription(SUMMARY) String summary,
      List<Task> tasks,
      @JsonPropertyDescription("More tasks match past this page") boolean hasMore) implements Answer {}

  public record MoveAnswer(
      @JsonPropertyDescription(SUMMARY) String summary,
      List<Task> tasks,
      @JsonPropertyDescription("blocked_by edges dropped because only one of their tasks moved") List<DroppedEdge> droppedEdges)
      implements Answer {}

  public record TagsAnswer(@JsonPropertyDescription(SUMMARY) String summary, List<Tag> tags) implements Answer {}

  public record TagAnswer(@JsonPropertyDescription(SUMMARY) String summary, Tag tag) implements Answer {}

  public record ProjectsAnswer(@JsonPropertyDescription(SUMMARY) String summary, List<Project> projects) implements Answer {}

  public record UserAnswer(
      @JsonPropertyDescription(SUMMARY) String summary,
      @JsonPropertyDescription("The user's answer") String answer,
      @JsonPropertyDescription("The question decision that carried it") long decision) implements Answer {}

  public record RunbookAnswer(@JsonPropertyDescription(SUMMARY) String summary, Runbook runbook) implements Answer {}

  public record RunbooksAnswer(@JsonPropertyDescription(SUMMARY) String summary, List<Runbook> runbooks) implements Answer {}
}
