// A task's transcript as items a view renders, built from hub events in seq order. Events are applied
// once each (by seq), so a replay after a reconnect never duplicates a line; transient text deltas build
// provisional assistant text that the stored turn.message replaces. A turn's plan and its usage are one
// item each, updated in place by later reports of the same turn.

import { HubEvent } from "../protocol/types";

interface ItemBase {
  /** Stable across updates: the view keys its elements by it. */
  readonly key: string;
  /** The seq of the event that created the item (0 for provisional text). */
  readonly seq: number;
}

export interface UserItem extends ItemBase { readonly kind: "user"; readonly text: string; readonly actor: string }
export interface AssistantItem extends ItemBase { readonly kind: "assistant"; text: string; provisional: boolean }
export interface ToolItem extends ItemBase {
  readonly kind: "tool";
  readonly turn: number;
  readonly callId: string;
  readonly tool: string;
  readonly input: string;
  output: string;
  result: string | undefined;
  isError: boolean;
  done: boolean;
  /** Why the permission for this call was denied (it then never runs, and has no result). */
  denied: string | undefined;
  /** The turn ended with no result for this call (stopped, failed). */
  interrupted: boolean;
}
export interface DecisionItem extends ItemBase {
  readonly kind: "decision";
  readonly decision: number;
  readonly decisionKind: string;
  readonly title: string;
  readonly detail: string;
  readonly options: readonly string[];
  status: "pending" | "answered" | "expired";
  answer: string | undefined;
}
export interface MarkerItem extends ItemBase { readonly kind: "marker"; readonly text: string; readonly tone: "info" | "error" | "ok" }
/** The agent's reasoning, as it shows it: the view folds it under "Thinking…". */
export interface ThoughtItem extends ItemBase { readonly kind: "thought"; readonly text: string }
export type PlanStatus = "pending" | "in_progress" | "completed";
export interface PlanEntry { readonly content: string; readonly status: PlanStatus; readonly priority: string }
/** The turn's plan: each turn.plan of the turn replaces the entries, in place. */
export interface PlanItem extends ItemBase { readonly kind: "plan"; readonly turn: number; entries: readonly PlanEntry[] }
/** The turn's usage so far: tokens and cost summed over its reports, the context as last reported. */
export interface UsageItem extends ItemBase {
  readonly kind: "usage";
  readonly turn: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | undefined;
  costEstimated: boolean;
  contextTokens: number | undefined;
  contextWindow: number | undefined;
  /** One line for the view, such as "12.3k in · 845 out · $0.0210 (estimated) · context 45% of 200k". */
  text: string;
}

export type TranscriptItem = UserItem | AssistantItem | ThoughtItem | PlanItem | ToolItem | DecisionItem | UsageItem | MarkerItem;

function text(value: unknown): string {
  return typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
}

function num(value: unknown): number {
  return typeof value === "number" ? value : Number(value ?? 0);
}

function optionalNum(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function planEntry(value: unknown): PlanEntry {
  const entry = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : { content: value };
  const status = entry.status === "in_progress" || entry.status === "completed" ? entry.status : "pending";
  return { content: text(entry.content), status, priority: entry.priority ? text(entry.priority) : "medium" };
}

/** 845, 12.3k, 1.2M: token counts at a glance. */
export function compactCount(n: number): string {
  if (n < 1000) {
    return String(Math.round(n));
  }
  const [value, unit] = n < 999_500 ? [n / 1000, "k"] : [n / 1_000_000, "M"];
  return `${value < 100 ? value.toFixed(1).replace(/\.0$/, "") : Math.round(value)}${unit}`;
}

function usageText(u: Omit<UsageItem, "text" | "kind" | "key" | "seq" | "turn">): string {
  const parts = [`${compactCount(u.inputTokens)} in`, `${compactCount(u.outputTokens)} out`];
  if (u.costUsd !== undefined) {
    parts.push(`$${u.costUsd.toFixed(4)}${u.costEstimated ? " (estimated)" : ""}`);
  }
  if (u.contextTokens !== undefined && u.contextWindow !== undefined && u.contextWindow > 0) {
    parts.push(`context ${Math.round((100 * u.contextTokens) / u.contextWindow)}% of ${compactCount(u.contextWindow)}`);
  }
  return parts.join(" · ");
}

/** Transcript state for one task. Not tied to any view; listeners learn which items changed. */
export class TranscriptModel {
  private readonly list: TranscriptItem[] = [];
  private readonly tools = new Map<string, ToolItem>();
  private readonly decisions = new Map<number, DecisionItem>();
  private readonly provisional = new Map<number, AssistantItem>(); // by turn
  private readonly plans = new Map<number, PlanItem>(); // by turn
  private readonly usages = new Map<number, UsageItem>(); // by turn
  private lastStored = 0;
  private changed = new Set<string>();
  private appended = false;

  constructor(readonly task: number) {}

  /** The seq of the last stored event applied: where to resume after a reconnect. */
  get lastSeq(): number {
    return this.lastStored;
  }

  get items(): readonly TranscriptItem[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  /** Moves the resume point forward without events (a page that ended on events this model ignores). */
  advanceTo(seq: number): void {
    this.lastStored = Math.max(this.lastStored, seq);
  }

  /** Items [start, end) of the list: what a view renders. */
  window(start: number, end: number): readonly TranscriptItem[] {
    return this.list.slice(Math.max(0, start), Math.min(this.list.length, end));
  }

  /** Keys changed since the last call, and whether items were appended; resets both. */
  takeChanges(): { readonly keys: ReadonlySet<string>; readonly appended: boolean } {
    const result = { keys: this.changed, appended: this.appended };
    this.changed = new Set();
    this.appended = false;
    return result;
  }

  indexOf(key: string): number {
    return this.list.findIndex((item) => item.key === key);
  }

  /** Applies one event; answers whether it changed anything (false for a repeat or another task's). */
  apply(event: HubEvent): boolean {
    if (event.task_id !== undefined && event.task_id !== this.task) {
      return false;
    }
    if (event.seq === 0) {
      return event.type === "turn.text_delta" ? this.delta(event) : false;
    }
    if (event.seq <= this.lastStored) {
      return false; // seen already (a replay overlapping what we have)
    }
    this.lastStored = event.seq;
    return this.stored(event);
  }

  applyAll(events: readonly HubEvent[]): number {
    let changed = 0;
    for (const event of events) {
      if (this.apply(event)) {
        changed++;
      }
    }
    return changed;
  }

  private push(item: TranscriptItem): void {
    this.list.push(item);
    this.changed.add(item.key);
    this.appended = true;
  }

  private touch(item: TranscriptItem): void {
    this.changed.add(item.key);
  }

  private delta(event: HubEvent): boolean {
    const turn = num(event.data.turn);
    const piece = text(event.data.text);
    const open = this.provisional.get(turn);
    if (open) {
      open.text += piece;
      this.touch(open);
    } else {
      const item: AssistantItem = { kind: "assistant", key: `draft-${turn}-${this.list.length}`, seq: 0, text: piece, provisional: true };
      this.provisional.set(turn, item);
      this.push(item);
    }
    return true;
  }

  private stored(event: HubEvent): boolean {
    const data = event.data;
    const key = `e${event.seq}`;
    switch (event.type) {
      case "turn.started":
        this.push({ kind: "marker", key, seq: event.seq, text: `Turn ${num(data.turn)} started${data.driver ? ` (${text(data.driver)})` : ""}`, tone: "info" });
        return true;
      case "turn.user_message":
        this.push({ kind: "user", key, seq: event.seq, text: text(data.text), actor: event.actor });
        return true;
      case "turn.queued":
        this.push({ kind: "marker", key, seq: event.seq, text: `Queued (position ${num(data.position)}): ${text(data.text)}`, tone: "info" });
        return true;
      case "turn.message": {
        const turn = num(data.turn);
        const draft = this.provisional.get(turn);
        this.provisional.delete(turn);
        if (draft) {
          draft.text = text(data.text);
          draft.provisional = false;
          this.touch(draft);
        } else {
          this.push({ kind: "assistant", key, seq: event.seq, text: text(data.text), provisional: false });
        }
        return true;
      }
      case "turn.thought":
        this.push({ kind: "thought", key, seq: event.seq, text: text(data.text) });
        return true;
      case "turn.plan":
        return this.plan(key, event.seq, num(data.turn), Array.isArray(data.entries) ? data.entries.map(planEntry) : []);
      case "turn.usage":
        return this.usage(key, event.seq, num(data.turn), data);
      case "turn.tool_call": {
        const item: ToolItem = {
          kind: "tool", key, seq: event.seq, turn: num(data.turn), callId: text(data.call_id), tool: text(data.tool), input: text(data.input),
          output: "", result: undefined, isError: false, done: false, denied: undefined, interrupted: false,
        };
        this.tools.set(item.callId, item);
        this.push(item);
        return true;
      }
      case "turn.tool_output": {
        const tool = this.tools.get(text(data.call_id));
        if (!tool) {
          return false;
        }
        tool.output += text(data.text);
        this.touch(tool);
        return true;
      }
      case "turn.tool_result": {
        const tool = this.tools.get(text(data.call_id));
        if (!tool) {
          return false;
        }
        tool.result = text(data.output);
        tool.isError = data.is_error === true;
        tool.done = true;
        this.touch(tool);
        return true;
      }
      case "turn.permission_requested":
        return this.openDecision(key, event.seq, {
          id: num(data.decision), kind: "permission", title: `Allow ${text(data.tool)}?`,
          message: text(data.description || data.command), options: ["allow_once", "allow_always", "deny"],
        });
      case "decision.opened": {
        const d = (data.decision ?? {}) as Record<string, unknown>;
        const options = Array.isArray(d.options) ? d.options.map(text) : [];
        return this.openDecision(key, event.seq, { id: num(d.id), kind: text(d.kind), title: text(d.title), message: text(d.message), options });
      }
      case "decision.answered":
      case "decision.expired": {
        const d = (data.decision ?? {}) as Record<string, unknown>;
        return this.closeDecision(num(d.id), event.type === "decision.answered" ? "answered" : "expired", d.answer === undefined || d.answer === null ? undefined : text(d.answer));
      }
      case "turn.permission_denied": {
        // The call never runs, so no turn.tool_result comes: the call itself reads as denied.
        const tool = this.tools.get(text(data.call_id));
        if (tool && !tool.done) {
          tool.done = true;
          tool.isError = true;
          tool.denied = text(data.reason) || "denied";
          this.touch(tool);
        }
        this.push({ kind: "marker", key, seq: event.seq, text: `Denied ${text(data.tool)}: ${text(data.reason)}`, tone: "error" });
        return true;
      }
      case "turn.error":
        this.push({ kind: "marker", key, seq: event.seq, text: `Error: ${text(data.message)}`, tone: "error" });
        return true;
      case "turn.question_refused":
        this.push({ kind: "marker", key, seq: event.seq, text: `Unattended: the agent asked "${text(data.question)}" and no one is there to answer`, tone: "error" });
        return true;
      case "turn.drift_refused":
        this.push({ kind: "marker", key, seq: event.seq, text: `Unattended: settings drift refused (${Array.isArray(data.files) ? data.files.map(text).join(", ") : ""})`, tone: "error" });
        return true;
      case "turn.context_trimmed":
      case "turn.endpoint_silent":
        this.push({ kind: "marker", key, seq: event.seq, text: text(data.text), tone: "info" });
        return true;
      case "task.pruned":
        this.push({ kind: "marker", key, seq: event.seq, text: `Transcript pruned by the retention policy: ${num(data.events)} events removed`, tone: "info" });
        return true;
      case "turn.ended": {
        this.provisional.delete(num(data.turn));
        this.interruptCalls(num(data.turn));
        const status = text(data.status);
        const reason = data.reason ? `: ${text(data.reason)}` : "";
        this.push({ kind: "marker", key, seq: event.seq, text: `Turn ${num(data.turn)} ${status}${reason}`, tone: status === "completed" ? "ok" : status === "failed" ? "error" : "info" });
        return true;
      }
      case "task.cleared":
        this.push({ kind: "marker", key, seq: event.seq, text: `Context cleared: generation ${num(data.generation)} starts`, tone: "info" });
        return true;
      default:
        return false; // task.*, turn.session, turn.result, … are not transcript lines
    }
  }

  /** Calls of an ended turn that never got a result will not get one: they stop reading as running. */
  private interruptCalls(turn: number): void {
    for (const tool of this.tools.values()) {
      if (tool.turn === turn && !tool.done) {
        tool.done = true;
        tool.interrupted = true;
        this.touch(tool);
      }
    }
  }

  private plan(key: string, seq: number, turn: number, entries: readonly PlanEntry[]): boolean {
    const shown = this.plans.get(turn);
    if (shown) {
      shown.entries = entries;
      this.touch(shown);
    } else {
      const item: PlanItem = { kind: "plan", key, seq, turn, entries };
      this.plans.set(turn, item);
      this.push(item);
    }
    return true;
  }

  private usage(key: string, seq: number, turn: number, data: Record<string, unknown>): boolean {
    const cost = optionalNum(data.cost_usd);
    const contextTokens = optionalNum(data.context_tokens);
    const contextWindow = optionalNum(data.context_window);
    const item: UsageItem = this.usages.get(turn) ?? {
      kind: "usage", key, seq, turn, inputTokens: 0, outputTokens: 0, costUsd: undefined, costEstimated: false,
      contextTokens: undefined, contextWindow: undefined, text: "",
    };
    item.inputTokens += num(data.input_tokens) || 0;
    item.outputTokens += num(data.output_tokens) || 0;
    if (cost !== undefined) {
      item.costUsd = (item.costUsd ?? 0) + cost;
      item.costEstimated ||= data.cost_estimated === true;
    }
    if (contextTokens !== undefined && contextWindow !== undefined) {
      item.contextTokens = contextTokens;
      item.contextWindow = contextWindow;
    }
    item.text = usageText(item);
    if (this.usages.has(turn)) {
      this.touch(item);
    } else {
      this.usages.set(turn, item);
      this.push(item);
    }
    return true;
  }

  private openDecision(key: string, seq: number, d: { id: number; kind: string; title: string; message: string; options: readonly string[] }): boolean {
    if (this.decisions.has(d.id)) {
      return false; // a permission arrives as turn.permission_requested and decision.opened: one line
    }
    const item: DecisionItem = {
      kind: "decision", key, seq, decision: d.id, decisionKind: d.kind, title: d.title, detail: d.message,
      options: d.options, status: "pending", answer: undefined,
    };
    this.decisions.set(d.id, item);
    this.push(item);
    return true;
  }

  /**
   * A decision closed (roundhouse/decisionClosed: answered elsewhere, expired), possibly before its stored
   * event reaches this transcript: its line stops offering buttons. Answers whether the line changed.
   */
  decisionClosed(id: number, status: string, answer?: string): boolean {
    const item = this.decisions.get(id);
    if (!item || item.status !== "pending") {
      return false;
    }
    return this.closeDecision(id, status === "answered" ? "answered" : "expired", answer);
  }

  private closeDecision(id: number, status: "answered" | "expired", answer: string | undefined): boolean {
    const item = this.decisions.get(id);
    if (!item) {
      return false;
    }
    item.status = status;
    item.answer = answer;
    this.touch(item);
    return true;
  }
}
