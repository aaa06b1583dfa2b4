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
