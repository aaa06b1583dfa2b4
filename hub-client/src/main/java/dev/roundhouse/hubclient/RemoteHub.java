package dev.roundhouse.hubclient;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.Task;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * The typed client of a running hub: each method is one operation ({@code POST /api/ops/{name}}) with the
 * hub's own input and output records ({@link BoardApi}, {@link TurnApi}, {@link ScheduleApi}, the {@code model} records), plus
 * {@link #call(String, Object)} for any operation as JSON and the event streams. What the CLI, the LSP face
 * and the ACP face call.
 *
 * <p>Outputs are read leniently: a field this client does not know (a newer hub) is skipped, not refused.
 * Failures are the {@link HubHttp}'s: {@link HubErrorException} with the hub's sentence,
 * {@link HubUnavailableException} when no hub answers.
 *
 * <p>Thread-safe: a {@link HubHttp} and an immutable mapper.
 */
public final class RemoteHub implements AutoCloseable {
  /** The hub's JSON settings, but tolerant of fields added by a newer hub. */
  private static final ObjectMapper READER = Json.mapper().copy().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final HubHttp http;

  public RemoteHub(HubHttp http) {
    this.http = http;
  }

  /**
   * A client for the editor faces (see {@link HubHttp#editorFace}).
   *
   * @param locator finds the hub (again after it restarts); throws {@link HubUnavailableException} when none
   *     runs
   */
  public static RemoteHub editorFace(Supplier<HubAddress> locator) {
    return new RemoteHub(HubHttp.editorFace(locator));
  }

  /** A client naming itself {@code userAgent} that waits up to {@code operationTimeout} for an operation. */
  public static RemoteHub connect(Supplier<HubAddress> locator, String userAgent, Duration operationTimeout) {
    return new RemoteHub(new HubHttp(locator, userAgent, operationTimeout));
  }

  /** The connection underneath, for text calls and streams. */
  public HubHttp http() {
    return http;
  }

  // ---- any operation

  /**
   * Runs operation {@code op} and returns its output as the hub sent it.
   *
   * @param input the operation's input record (or a map), serialized with the hub's JSON settings; null: none
   */
  public JsonNode call(String op, Object input) {
    return http.callTree(op, input);
  }

  /** Runs operation {@code op} and reads its output as {@code output}. */
  public <T> T call(String op, Object input, Class<T> output) {
    JsonNode tree = call(op, input);
    try {
      return READER.treeToValue(tree, output);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new HubErrorException(
          502, "bad_response", "the hub at " + http.address().url() + " answered " + op + " with something that is not a " + output.getSimpleName() + ": " + e.getMessage());
    }
  }

  // ---- projects and tasks (BoardApi)

  public Project projectCreate(BoardApi.ProjectCreate input) {
    return call("project_create", input, Project.class);
  }

  public List<Project> projectList() {
    return call("project_list", new BoardApi.NoInput(), BoardApi.ProjectList.class).projects();
  }

  /** One project by id or name. */
  public Project projectGet(String project) {
    return call("project_get", new BoardApi.ProjectRef(project), Project.class);
  }

  /** One project's board: a column per status, each in board order. */
  public BoardApi.BoardView projectBoard(String project) {
    return call("project_board", new BoardApi.ProjectRef(project), BoardApi.BoardView.class);
  }

  public Task taskGet(long task) {
    return call("task_get", new BoardApi.TaskRef(task), Task.class);
  }

  public Task taskCreate(BoardApi.TaskCreate input) {
    return call("task_create", input, Task.class);
  }

  public Task taskUpdate(BoardApi.TaskUpdate input) {
    return call("task_update", input, Task.class);
  }

  public BoardApi.TaskList taskList(BoardApi.TaskListQuery query) {
    return call("task_list", query, BoardApi.TaskList.class);
  }

  public BoardApi.TaskMoved taskMove(BoardApi.TaskMove input) {
    return call("task_move", input, BoardApi.TaskMoved.class);
  }

  public BoardApi.TaskDeleted taskDelete(long task) {
    return call("task_delete", new BoardApi.TaskRef(task), BoardApi.TaskDeleted.class);
  }

  /** A task's recorded edits, newest first. */
  public BoardApi.TaskEdits taskEdits(BoardApi.TaskEditsQuery query) {
    return call("task_edits", query, BoardApi.TaskEdits.class);
  }

  /** Undoes one recorded edit; returns the task as it now is. */
  public Task taskRevertEdit(long edit) {
    return call("task_revert_edit", new BoardApi.EditRef(edit), Task.class);
  }

  // ---- turns, transcripts, decisions, drivers (TurnApi)

  public TurnApi.TurnView turnStart(TurnApi.TurnStart input) {
    return call("turn_start", input, TurnApi.TurnView.class);
  }

  public TurnApi.SendResult turnSend(TurnApi.TurnSend input) {
    return call("turn_send", input, TurnApi.SendResult.class);
  }

  /** A task's turns, newest first, and its queue. */
  public TurnApi.TurnList turnList(TurnApi.TurnListQuery query) {
    return call("turn_list", query, TurnApi.TurnList.class);
  }

  public TurnApi.TurnView turnStop(long task) {
    return call("turn_stop", new TurnApi.TaskRef(task), TurnApi.TurnView.class);
  }

  /** How a task's run ended, judged from its turn (the latest when {@code turn} is null). */
  public TurnApi.TurnOutcomeView turnOutcome(long task, Long turn) {
    return call("turn_outcome", new TurnApi.TurnOutcomeQuery(task, turn), TurnApi.TurnOutcomeView.class);
  }

  public TurnApi.Transcript taskTranscript(TurnApi.TranscriptQuery query) {
    return call("task_transcript", query, TurnApi.Transcript.class);
  }

  public TurnApi.DecisionList decisionList(TurnApi.DecisionQuery query) {
    return call("decision_list", query, TurnApi.DecisionList.class);
  }

  public Decision decisionAnswer(TurnApi.DecisionAnswer answer) {
    return call("decision_answer", answer, Decision.class);
  }

  public TurnApi.DriverList driverList() {
    return call("driver_list", new BoardApi.NoInput(), TurnApi.DriverList.class);
  }

  // ---- runbooks, schedules and the scheduler (ScheduleApi)

  public Runbook runbookCreate(ScheduleApi.RunbookCreate input) {
    return call("runbook_create", input, Runbook.class);
  }

  /** Runbooks by name, in one project (id or name) or, with null, every project. */
  public List<Runbook> runbookList(String project) {
    return call("runbook_list", new ScheduleApi.RunbookQuery(project), ScheduleApi.RunbookList.class).runbooks();
  }

  public Runbook runbookGet(ScheduleApi.RunbookRef ref) {
    return call("runbook_get", ref, Runbook.class);
  }

  public Runbook runbookUpdate(ScheduleApi.RunbookUpdate input) {
    return call("runbook_update", input, Runbook.class);
  }

  public ScheduleApi.RunbookDeleted runbookDelete(ScheduleApi.RunbookRef ref) {
    return call("runbook_delete", ref, ScheduleApi.RunbookDeleted.class);
  }

  /** Mints a task from a runbook and starts its first turn. */
  public ScheduleApi.RunStarted runbookRun(ScheduleApi.RunbookRun input) {
    return call("runbook_run", input, ScheduleApi.RunStarted.class);
  }

  public Schedule scheduleCreate(ScheduleApi.ScheduleCreate input) {
    return call("schedule_create", input, Schedule.class);
  }

  /** Schedules with their last run, in one project (id or name) or, with null, every project. */
  public List<ScheduleApi.ScheduleView> scheduleList(String project) {
    return call("schedule_list", new ScheduleApi.ScheduleQuery(project), ScheduleApi.ScheduleList.class).schedules();
  }

  public ScheduleApi.ScheduleView scheduleGet(ScheduleApi.ScheduleRef ref) {
    return call("schedule_get", ref, ScheduleApi.ScheduleView.class);
  }

  public Schedule scheduleUpdate(ScheduleApi.ScheduleUpdate input) {
    return call("schedule_update", input, Schedule.class);
  }

  public Schedule schedulePause(ScheduleApi.ScheduleRef ref) {
    return call("schedule_pause", ref, Schedule.class);
  }

  public Schedule scheduleResume(ScheduleApi.ScheduleRef ref) {
    return call("schedule_resume", ref, Schedule.class);
  }

  public ScheduleApi.ScheduleDeleted scheduleDelete(ScheduleApi.ScheduleRef ref) {
    return call("schedule_delete", ref, ScheduleApi.ScheduleDeleted.class);
  }

  /** The next firings of a schedule, or of a recurrence and zone to try out. */
  public ScheduleApi.Firings schedulePreview(ScheduleApi.SchedulePreview input) {
    return call("schedule_preview", input, ScheduleApi.Firings.class);
  }

  /** A schedule's runs, newest first. */
  public ScheduleApi.ScheduleRuns scheduleRuns(ScheduleApi.ScheduleRunsQuery query) {
    return call("schedule_runs", query, ScheduleApi.ScheduleRuns.class);
  }

  public ScheduleApi.SchedulerStatus schedulerStatus() {
    return call("scheduler_status", new BoardApi.NoInput(), ScheduleApi.SchedulerStatus.class);
  }

  // ---- event streams

  /** The sequence number of the newest stored event (see {@link HubHttp#latestSeq()}). */
  public long latestSeq() {
    return http.latestSeq();
  }

  /** One task's event stream after {@code after} (see {@link HubHttp#openTaskEvents}). */
  public InputStream openTaskEvents(long task, Long after) {
    return http.openTaskEvents(task, after);
  }

  /** Aborts every call and stream still running and releases the connection. */
  @Override
  public void close() {
    http.close();
  }
}
