package dev.roundhouse.hub.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.events.Event;
import java.util.List;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.model.RunOutcome;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.spi.DriverCapabilities;

/** The wire contract of the runner's and decisions' operations. */
public final class TurnApi {
  private TurnApi() {}

  public record TurnStart(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("The message to answer; absent to run the oldest queued message") String message,
      @JsonPropertyDescription("Driver id; the task's agent, then the project's default when absent") String driver,
      @JsonPropertyDescription("Model, when the driver offers several") String model,
      @JsonPropertyDescription("The agent's permission mode, when the driver has modes") String permissionMode,
      @JsonPropertyDescription("No human is watching: a permission that would ask is denied, a question or settings drift fails the run, and the session never lingers")
          Boolean unattended,
      @JsonPropertyDescription("Give the agent the project's context text (default true)") Boolean projectContext,
      @JsonPropertyDescription("MCP servers the agent gets for this turn next to the hub's own tools (an ACP client's); kept in memory only, never stored, and inherited by the turns that run the task's queued messages after it; refused from an agent")
          List<McpServerSpec> mcpServers) {

    public TurnStart(long task, String message, String driver, String model, String permissionMode, Boolean unattended) {
      this(task, message, driver, model, permissionMode, unattended, null, null);
    }

    public TurnStart(long task, String message, String driver, String model, String permissionMode, Boolean unattended, Boolean projectContext) {
      this(task, message, driver, model, permissionMode, unattended, projectContext, null);
    }
  }

  public record TurnSend(
      @JsonProperty(required = true) long task,
      @JsonProperty(required = true) String message,
      @JsonPropertyDescription("Driver for a turn this message starts") String driver,
      @JsonPropertyDescription("MCP servers for a turn this message starts (as turn_start's); a running or lingering turn keeps its own")
          List<McpServerSpec> mcpServers) {

    public TurnSend(long task, String message, String driver) {
      this(task, message, driver, null);
    }
  }

  public record TaskRef(@JsonProperty(required = true) long task) {}

  public record TurnListQuery(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("At most this many, newest first (default 20)") Integer limit) {}

  public record TurnList(List<Turn> turns, List<QueuedMessage> queue) {}

  /** A turn and the messages waiting behind it. */
  public record TurnView(Turn turn, List<QueuedMessage> queue) {}

  public record SendResult(
      @JsonPropertyDescription("started: a new turn runs it; queued: it runs after the current turn; lingering: the open session takes it next")
          String delivery,
      Turn turn,
      List<QueuedMessage> queue) {}

  public record TranscriptQuery(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("Generation to read; the current one when absent") Integer generation,
      @JsonPropertyDescription("Only entries after this event sequence number, for paging") Long after,
      @JsonPropertyDescription("At most this many entries (default 500, at most 5000)") Integer limit) {}

  public record Transcript(
      long task,
      int generation,
      @JsonPropertyDescription("The task's current generation") int currentGeneration,
      @JsonPropertyDescription("Summaries of the generations before this one, oldest first") List<String> priorSummaries,
      List<Event> entries,
      boolean hasMore,
      @JsonPropertyDescription("Pass as 'after' to read the next page") long lastSeq) {}

  public record Cleared(long task, int endedGeneration, int generation, String summary, String summarisedBy) {}

  public record DecisionQuery(
      @JsonPropertyDescription("Only this project's (id or name)") String project,
      @JsonPropertyDescription("Only this task's") Long task,
      @JsonPropertyDescription("Include answered and expired ones (newest first)") Boolean includeClosed,
      Integer limit) {}

  public record ProjectCount(Long projectId, String project, int pending) {}

  public record DecisionList(List<Decision> decisions, int pending, List<ProjectCount> pendingByProject) {}

  public record DecisionAnswer(
      @JsonProperty(required = true) long decision,
      @JsonProperty(required = true)
          @JsonPropertyDescription("One of the decision's options (permissions: allow_once, allow_always, deny; settings drift: adopt, decline), or the text answering a question")
          String answer,
      @JsonPropertyDescription("A note for the agent, such as why it was denied") String message,
      @JsonPropertyDescription("With allow_always on a shell command: the command prefix to remember (default: the whole command)")
          String rule) {}

  public record TurnOutcomeQuery(
      @JsonProperty(required = true) long task,
      @JsonPropertyDescription("The turn to judge; the task's latest turn when absent") Long turn) {}

  /** How a run ended, judged from its turn (see docs/turns.md, "Unattended runs"). */
  public record TurnOutcomeView(
      long task,
      long turn,
      TurnStatus status,
      @JsonPropertyDescription("running, done, failed, denied (a permission was denied) or needed_person (a question, or settings drift)")
          RunOutcome outcome,
      @JsonPropertyDescription("Why, in a sentence: the turn's end reason or the first denied permission; null for a clean run")
          String reason,
      @JsonPropertyDescription("How many permissions the turn was denied") int deniedPermissions,
      @JsonPropertyDescription("How many questions the unattended turn refused (the first fails the run)") int refusedQuestions,
      boolean unattended) {}

  public record DriverInfo(String id, DriverCapabilities capabilities, AuthStatus auth) {}

  public record DriverList(List<DriverInfo> drivers) {}

  public record DriverRef(@JsonProperty(required = true) String driver) {}
}
