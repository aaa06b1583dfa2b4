// The shapes the bridge sends (docs/lsp-protocol.md): the hub's JSON as it is, snake_case fields.
// Only the fields the extension reads are typed; the rest pass through untouched.

export type TaskStatus = "backlog" | "todo" | "in_progress" | "review" | "done" | "cancelled";

export const TASK_STATUSES: readonly TaskStatus[] = ["backlog", "todo", "in_progress", "review", "done", "cancelled"];

export interface Project {
  readonly id: number;
  readonly name: string;
  readonly path?: string;
  readonly default_agent?: string;
}

export interface Task {
  readonly id: number;
  readonly project_id: number;
  readonly title: string;
  readonly description?: string;
  readonly status: TaskStatus;
  readonly priority?: "low" | "normal" | "high" | "urgent";
  readonly tags?: readonly string[];
  readonly suggested?: boolean;
  readonly agent?: string;
  readonly blocked_by?: readonly number[];
}

export interface Column {
  readonly status: TaskStatus;
  readonly tasks: readonly Task[];
}

export interface Board {
  readonly project: Project;
  readonly columns: readonly Column[];
}

export interface ProjectList {
  readonly projects: readonly Project[];
}

/** A hub event (docs/events.md): seq 0 marks a transient one (turn.text_delta). */
export interface HubEvent {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly actor: string;
  readonly project_id?: number;
  readonly task_id?: number;
  readonly data: Readonly<Record<string, unknown>>;
}

export type DecisionStatus = "pending" | "answered" | "expired";

export interface Decision {
  readonly id: number;
  readonly kind: string; // permission, question, settings_drift, calendar_proposal, …
  readonly title: string;
  readonly message?: string;
  readonly options: readonly string[];
  readonly request?: Readonly<Record<string, unknown>>;
  readonly task_id?: number | null;
  readonly project_id?: number | null;
  readonly turn_id?: number | null;
  readonly status: DecisionStatus;
  readonly answer?: string | null;
  readonly created_at?: string;
}

export interface DecisionList {
  readonly decisions: readonly Decision[];
  readonly pending: number;
}

export interface DecisionClosed {
  readonly decision: number;
  readonly status: DecisionStatus;
  readonly answer?: string;
  readonly closed_by?: string;
}

export interface ConnectionState {
  readonly state: "connected" | "lost";
  readonly last_seq: number;
  readonly reason?: string;
}

export interface TaskConnectionState {
  readonly task: number;
  readonly state: "connected" | "lost" | "ended";
  readonly last_seq: number;
  readonly reason?: string;
}

export interface WatchResult {
  readonly watching: true;
  readonly task: number;
  readonly after: number;
}

export interface TranscriptPage {
  readonly task: number;
  readonly generation: number;
  readonly current_generation: number;
  readonly prior_summaries: readonly string[];
  readonly entries: readonly HubEvent[];
  readonly has_more: boolean;
  readonly last_seq: number;
}

export interface TurnView {
  readonly id: number;
  readonly task_id?: number;
  readonly status: string; // running, lingering, completed, failed, stopped, interrupted, declined
}

export interface TurnList {
  readonly turns: readonly TurnView[];
}

export interface InitializeRoundhouse {
  readonly version: number;
  readonly requests: readonly string[];
  readonly notifications: readonly string[];
}

// ---- Workspace (docs/workspace.md): task_workspace, task_diff, task_merge, task_sync, create_pr, reviews.
// Engine enums come as their Java names (ADDED, FAST_FORWARD, OPEN).

export type ChangeKind = "ADDED" | "MODIFIED" | "DELETED" | "RENAMED";

export interface DiffHunk {
  readonly old_start: number;
  readonly old_lines: number;
  readonly new_start: number;
  readonly new_lines: number;
  readonly text: string;
}

export interface FileChange {
  readonly path: string;
  readonly old_path?: string;
  readonly kind: ChangeKind;
  readonly binary?: boolean;
  readonly added?: number;
  readonly removed?: number;
  readonly uncommitted?: boolean;
  readonly hunks?: readonly DiffHunk[];
}

export interface TaskDiffBody {
  readonly merge_base?: string;
  readonly head?: string;
  readonly base_branch?: string;
  readonly base_tip?: string;
  readonly files: readonly FileChange[];
  readonly added?: number;
  readonly removed?: number;
}

export interface TaskDiff {
  readonly task: number;
  readonly branch?: string;
  readonly diff: TaskDiffBody;
}

export interface TaskWorktree {
  readonly project?: string;
  readonly task_id?: number;
  readonly repository?: string;
  readonly branch: string;
  readonly path: string;
  readonly base_branch: string;
  readonly base_commit?: string;
}

export interface WorktreeStatus {
  readonly exists: boolean;
  readonly branch?: string;
  readonly head?: string;
  readonly clean?: boolean;
  readonly ahead?: number;
  readonly behind?: number;
}

export interface TaskWorkspace {
  readonly task: number;
  readonly worktree?: TaskWorktree;
  readonly working_directory?: string;
  readonly status?: WorktreeStatus;
  readonly landed?: string;
  readonly note?: string;
  readonly notes?: readonly string[];
}

export type MergeOutcome = "FAST_FORWARD" | "MERGE_COMMIT" | "UP_TO_DATE" | "CONFLICT" | "REFUSED";

export interface MergeResult {
  readonly outcome: MergeOutcome;
  readonly target?: string;
  readonly before?: string;
  readonly after?: string;
  readonly conflicts?: readonly string[];
  readonly message?: string;
}

export interface MergeView {
  readonly task: number;
  readonly branch?: string;
  readonly result: MergeResult;
  readonly asked_agent?: boolean;
  readonly delivery?: string;
}

export interface PullRequest {
  readonly number: number;
  readonly url?: string;
  readonly title?: string;
  readonly base?: string;
  readonly head?: string;
  readonly state?: "OPEN" | "MERGED" | "CLOSED";
}

export interface PullRequestRecord {
  readonly task: number;
  readonly forge?: string;
  readonly pull_request: PullRequest;
}

export type Verdict = "approve" | "request_changes";

export interface ReviewComment {
  readonly path: string;
  readonly line: number;
  readonly body: string;
}

export interface Review {
  readonly task: number;
  readonly reviewer: string;
  readonly verdict: Verdict;
  readonly summary?: string;
  readonly comments?: readonly ReviewComment[];
  readonly head?: string;
  readonly submitted_at?: string;
}

export interface ReviewList {
  readonly task: number;
  readonly reviews: readonly Review[];
  readonly state: "approved" | "changes_requested" | "none";
}

// ---- Services (docs/services.md): service_list, service_start/stop/restart, service_logs.

export type ServiceStatus = "stopped" | "starting" | "ready" | "stopping" | "backoff" | "exited" | "failed";

export interface ServiceState {
  readonly name: string;
  readonly kind?: string;
  readonly status: ServiceStatus;
  readonly pid?: number;
  readonly exit_code?: number;
  readonly restarts?: number;
  readonly port?: number;
  readonly message?: string;
  readonly since?: string;
  readonly log_offset?: number;
  readonly version?: number;
}

export interface ServiceView {
  readonly definition: { readonly name: string; readonly command?: string; readonly argv?: readonly string[]; readonly kind?: string; readonly task?: number };
  readonly state: ServiceState;
}

export interface ServiceList {
  readonly project: string;
  readonly project_id: number;
  readonly port?: number;
  readonly services: readonly ServiceView[];
}

export interface LogLine {
  readonly offset: number;
  readonly stream: "stdout" | "stderr" | "marker";
  readonly text: string;
  readonly at?: string;
}

export interface ServiceLogs {
  readonly service: string;
  readonly lines: readonly LogLine[];
  readonly missed?: number;
  readonly next_offset: number;
}

export interface OperationInfo {
  readonly name: string;
}

// ---- Runbooks and schedules (docs/schedules.md): runbook_list, runbook_run, schedule_list, schedule_runs,
// schedule_preview, scheduler_status. Instants are ISO strings.

/** A run's state: pending, queued, running, or how it ended (done, failed, denied, needed_person), or skipped. */
export type RunStatus = "pending" | "queued" | "running" | "skipped" | "done" | "failed" | "denied" | "needed_person";

export interface Runbook {
  readonly id: number;
  readonly project_id: number;
  readonly name: string;
  readonly prompt: string;
  readonly driver?: string;
  readonly model?: string;
  readonly permission_mode?: string;
  readonly priority?: string;
  readonly tags?: readonly string[];
  readonly send_context?: boolean;
}

export interface RunbookList {
  readonly runbooks: readonly Runbook[];
}

export interface Schedule {
  readonly id: number;
  readonly project_id: number;
  readonly name: string;
  readonly runbook_id?: number;
  readonly prompt?: string;
  readonly recurrence: string;
  readonly zone: string;
  readonly missed: "skip" | "run_once";
  readonly overlap: "skip" | "queue" | "allow";
  readonly paused: boolean;
  /** Absent when the recurrence has ended (or a paused schedule is past its end). */
  readonly next_at?: string;
}

export interface ScheduleRun {
  readonly schedule_id: number;
  readonly scheduled_at: string;
  readonly status: RunStatus | string;
  readonly task_id?: number;
  readonly turn_id?: number;
  readonly reason?: string;
  readonly fired_at?: string;
  readonly ended_at?: string;
}

/** schedule_list's entry: the schedule, its runbook's name, its latest run. */
export interface ScheduleView {
  readonly schedule: Schedule;
  readonly runbook?: string;
  readonly last_run?: ScheduleRun;
}

export interface ScheduleList {
  readonly schedules: readonly ScheduleView[];
}

export interface ScheduleRuns {
  readonly schedule: Schedule;
  readonly runs: readonly ScheduleRun[];
}

export interface Firing {
  readonly at: string;
  /** The wall-clock time with its offset, in the schedule's zone. */
  readonly local: string;
}

export interface Firings {
  readonly recurrence: string;
  readonly zone: string;
  readonly firings: readonly Firing[];
}

/** runbook_run's answer: the new task and its first turn. */
export interface RunStarted {
  readonly task: Task;
  readonly turn: TurnView;
}

export interface SchedulerStatus {
  readonly enabled: boolean;
  readonly last_tick?: string;
  readonly last_tick_millis?: number;
  readonly lag_millis?: number;
  readonly next_firing?: string;
  readonly active_schedules?: number;
  readonly open_runs?: number;
  readonly stuck: boolean;
  readonly reason?: string;
}
