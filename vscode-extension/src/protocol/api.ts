// Typed calls to the bridge's roundhouse/* requests and notifications. No vscode here: the extension
// and the protocol test against the real `roundhouse lsp` both use this.

import { CancellationSignal, Disposable, RpcConnection } from "./connection";
import { Emitter } from "./emitter";
import { Notifications, Requests } from "./methods";
import {
  Board, ConnectionState, Decision, DecisionClosed, DecisionList, Firings, HubEvent, MergeView, OperationInfo, ProjectList,
  PullRequestRecord, Review, ReviewComment, ReviewList, RunbookList, RunStarted, Schedule, ScheduleList, ScheduleRuns, SchedulerStatus,
  ServiceList, ServiceLogs, ServiceState, Task, TaskConnectionState, TaskDiff, TaskStatus, TaskWorkspace, TranscriptPage, TurnList,
  Verdict, WatchResult,
} from "./types";

export interface NewTask {
  readonly project: string;
  readonly title: string;
  readonly description?: string;
  /** The column; backlog when absent. */
  readonly status?: TaskStatus;
}

export interface TaskEdit {
  readonly title?: string;
  readonly description?: string;
  readonly priority?: Task["priority"];
  readonly tags?: readonly string[];
  readonly suggested?: boolean;
}

export interface TranscriptQuery {
  readonly task: number;
  readonly after?: number;
  readonly limit?: number;
  readonly generation?: number;
}

/**
 * The bridge's roundhouse/* requests, typed, and its notifications fanned out to any number of listeners
 * (a JSON-RPC connection keeps one handler per method, so this class registers each once).
 */
export class RoundhouseApi implements Disposable {
  private readonly events = new Emitter<HubEvent>();
  private readonly taskEvents = new Emitter<HubEvent>();
  private readonly taskConnections = new Emitter<TaskConnectionState>();
  private readonly decisionOpened = new Emitter<Decision>();
  private readonly decisionClosed = new Emitter<DecisionClosed>();
  private readonly connections = new Emitter<ConnectionState>();
  private readonly registrations: Disposable[];

  constructor(private readonly connection: RpcConnection) {
    this.registrations = [
      connection.onNotification(Notifications.event, (params) => this.events.fire(params as HubEvent)),
      connection.onNotification(Notifications.taskEvent, (params) => this.taskEvents.fire(params as HubEvent)),
      connection.onNotification(Notifications.taskConnection, (params) => this.taskConnections.fire(params as TaskConnectionState)),
      connection.onNotification(Notifications.decision, (params) => this.decisionOpened.fire(params as Decision)),
      connection.onNotification(Notifications.decisionClosed, (params) => this.decisionClosed.fire(params as DecisionClosed)),
      connection.onNotification(Notifications.connection, (params) => this.connections.fire(params as ConnectionState)),
    ];
  }

  /** Runs any hub operation (roundhouse/call) and answers with its output. */
  call<R>(name: string, args: object = {}, token?: CancellationSignal): Promise<R> {
    return this.connection.sendRequest<R>(Requests.call, { name, arguments: args }, token);
  }

  projects(): Promise<ProjectList> {
    return this.call<ProjectList>("project_list");
  }

  board(project: string | number): Promise<Board> {
    return this.connection.sendRequest<Board>(Requests.board, { project });
  }

  task(task: number): Promise<Task> {
    return this.connection.sendRequest<Task>(Requests.task, { task });
  }

  decisions(query: { project?: string; task?: number; include_closed?: boolean; limit?: number } = {}): Promise<DecisionList> {
    return this.connection.sendRequest<DecisionList>(Requests.decisions, query);
  }

  answerDecision(decision: number, answer: string, message?: string): Promise<Decision> {
    return this.connection.sendRequest<Decision>(Requests.answerDecision, message === undefined ? { decision, answer } : { decision, answer, message });
  }

  subscribe(after?: number, types?: readonly string[]): Promise<{ subscribed: boolean; after?: number }> {
    const params: { after?: number; types?: readonly string[] } = {};
    if (after !== undefined) {
      params.after = after;
    }
    if (types !== undefined) {
      params.types = types;
    }
    return this.connection.sendRequest(Requests.subscribe, params);
  }

  watchTask(task: number, after?: number): Promise<WatchResult> {
    return this.connection.sendRequest<WatchResult>(Requests.watchTask, after === undefined ? { task } : { task, after });
  }

  unwatchTask(task: number): Promise<{ watching: false; task: number; was_watching: boolean }> {
    return this.connection.sendRequest(Requests.unwatchTask, { task });
  }

  transcript(query: TranscriptQuery, token?: CancellationSignal): Promise<TranscriptPage> {
    return this.connection.sendRequest<TranscriptPage>(Requests.transcript, query, token);
  }

  createTask(task: NewTask): Promise<Task> {
    return this.call<Task>("task_create", task);
  }

  updateTask(task: number, edit: TaskEdit): Promise<Task> {
    return this.call<Task>("task_update", { task, ...edit });
  }

  moveTask(task: number, status: TaskStatus): Promise<{ tasks: readonly Task[] }> {
    return this.call("task_move", { tasks: [task], status });
  }

  startTurn(task: number, message?: string): Promise<unknown> {
    return this.call("turn_start", message === undefined ? { task } : { task, message });
  }

  sendMessage(task: number, message: string): Promise<{ delivery: string }> {
    return this.call("turn_send", { task, message });
  }

  stopTurn(task: number): Promise<unknown> {
    return this.call("turn_stop", { task });
  }

  turns(task: number, limit = 1): Promise<TurnList> {
    return this.call<TurnList>("turn_list", { task, limit });
  }

  /** The names of the operations the hub offers (roundhouse/operations): which modules it runs. */
  async operationNames(): Promise<Set<string>> {
    const answer = await this.connection.sendRequest<{ operations?: readonly OperationInfo[] } | readonly OperationInfo[]>(Requests.operations, {});
    const list = Array.isArray(answer) ? answer : (answer as { operations?: readonly OperationInfo[] }).operations ?? [];
    return new Set(list.map((op) => op.name));
  }

  // Workspace (docs/workspace.md)

  taskWorkspace(task: number, ensure = false): Promise<TaskWorkspace> {
    return this.call<TaskWorkspace>("task_workspace", ensure ? { task, ensure } : { task });
  }

  taskDiff(task: number, options: { hunks?: boolean; path?: string } = {}): Promise<TaskDiff> {
    return this.call<TaskDiff>("task_diff", { task, ...options });
  }

  mergeTask(task: number, askAgent = false): Promise<MergeView> {
    return this.call<MergeView>("task_merge", askAgent ? { task, ask_agent: true } : { task });
  }

  syncTask(task: number): Promise<MergeView> {
    return this.call<MergeView>("task_sync", { task });
  }

  createPullRequest(task: number, draft: { title?: string; body?: string; base?: string } = {}): Promise<PullRequestRecord> {
    return this.call<PullRequestRecord>("create_pr", { task, ...draft });
  }

  submitReview(task: number, verdict: Verdict, summary?: string, comments?: readonly ReviewComment[]): Promise<Review> {
    const input: Record<string, unknown> = { task, verdict };
    if (summary !== undefined && summary !== "") {
      input.summary = summary;
    }
    if (comments !== undefined && comments.length > 0) {
      input.comments = comments;
    }
    return this.call<Review>("submit_review", input);
  }

  reviews(task: number): Promise<ReviewList> {
    return this.call<ReviewList>("get_review", { task });
  }

  // Services (docs/services.md)

  services(project: string | number): Promise<ServiceList> {
    return this.call<ServiceList>("service_list", { project: String(project) });
  }

  serviceAction(action: "start" | "stop" | "restart", project: string | number, service: string): Promise<ServiceState> {
    return this.call<ServiceState>(`service_${action}`, { project: String(project), service });
  }

  /** Lines from `from` (the previous read's next_offset); absent: the last `limit` lines. */
  serviceLogs(project: string | number, service: string, from?: number, limit?: number): Promise<ServiceLogs> {
    const input: Record<string, unknown> = { project: String(project), service };
    if (from !== undefined) {
      input.from = from;
    }
    if (limit !== undefined) {
      input.limit = limit;
    }
    return this.call<ServiceLogs>("service_logs", input);
  }

  // Runbooks and schedules (docs/schedules.md). A runbook or schedule is named by its id, sent as the string
  // the hub's reference reads (an all-digit reference is an id).

  runbooks(project?: string): Promise<RunbookList> {
    return this.call<RunbookList>("runbook_list", project === undefined ? {} : { project });
  }

  /** Mints a task from the runbook and starts its first turn; attended unless told otherwise. */
  runRunbook(runbook: number, unattended = false): Promise<RunStarted> {
    return this.call<RunStarted>("runbook_run", { runbook: String(runbook), unattended });
  }

  deleteRunbook(runbook: number): Promise<{ runbook: number; name: string }> {
    return this.call("runbook_delete", { runbook: String(runbook) });
  }

  schedules(project?: string): Promise<ScheduleList> {
    return this.call<ScheduleList>("schedule_list", project === undefined ? {} : { project });
  }

  pauseSchedule(schedule: number, paused: boolean): Promise<Schedule> {
    return this.call<Schedule>(paused ? "schedule_pause" : "schedule_resume", { schedule: String(schedule) });
  }

  deleteSchedule(schedule: number): Promise<{ schedule: number; name: string }> {
    return this.call("schedule_delete", { schedule: String(schedule) });
  }

  /** The schedule's runs, newest first. */
  scheduleRuns(schedule: number, limit: number): Promise<ScheduleRuns> {
    return this.call<ScheduleRuns>("schedule_runs", { schedule: String(schedule), limit });
  }

  schedulePreview(schedule: number, count: number): Promise<Firings> {
    return this.call<Firings>("schedule_preview", { schedule: String(schedule), count });
  }

  schedulerStatus(): Promise<SchedulerStatus> {
    return this.call<SchedulerStatus>("scheduler_status");
  }

  onEvent(handler: (event: HubEvent) => void): Disposable {
    return this.events.on(handler);
  }

  /** Events of watched tasks (roundhouse/taskEvent); transient ones have seq 0. */
  onTaskEvent(handler: (event: HubEvent) => void): Disposable {
    return this.taskEvents.on(handler);
  }

  onTaskConnection(handler: (state: TaskConnectionState) => void): Disposable {
    return this.taskConnections.on(handler);
  }

  onDecision(handler: (decision: Decision) => void): Disposable {
    return this.decisionOpened.on(handler);
  }

  onDecisionClosed(handler: (closed: DecisionClosed) => void): Disposable {
    return this.decisionClosed.on(handler);
  }

  onConnection(handler: (state: ConnectionState) => void): Disposable {
    return this.connections.on(handler);
  }

  /** Stops listening to the connection's notifications. */
  dispose(): void {
    this.registrations.forEach((registration) => registration.dispose());
  }
}
