// Schedules and runbooks as the Schedules and Runbooks views show them: schedule_list, runbook_list and
// scheduler_status read together, a schedule's runs (schedule_runs) read when it is first expanded. Holds what
// the hub sent, reads it again (debounced) after runbook.* and schedule.* events, and turns it into plain node
// views; no vscode here. Times are shown on this machine's clock (the zone is injectable for tests).

import { RoundhouseApi } from "../protocol/api";
import { describeError, Disposable } from "../protocol/connection";
import { Emitter } from "../protocol/emitter";
import { HubEvent, Project, Runbook, Schedule, ScheduleRun, SchedulerStatus, ScheduleView } from "../protocol/types";
import { NodeView } from "./board";

export type ScheduleNode =
  | { readonly kind: "scheduler"; readonly status: SchedulerStatus }
  | { readonly kind: "scheduleProject"; readonly project: Project }
  | { readonly kind: "schedule"; readonly project: Project; readonly view: ScheduleView }
  /** `task_id` is the run's task, at the top so the open-transcript command finds it. */
  | { readonly kind: "run"; readonly schedule: Schedule; readonly run: ScheduleRun; readonly task_id?: number }
  | NoteNode;

export type RunbookNode = { readonly kind: "runbook"; readonly project: Project; readonly runbook: Runbook } | NoteNode;

export interface NoteNode {
  readonly kind: "note";
  readonly id: string;
  readonly text: string;
  readonly tooltip: string;
}

/** Which of the operations the views need the hub offers, from roundhouse/operations. */
export interface ScheduleOperations {
  readonly schedules: boolean;
  readonly runbooks: boolean;
  readonly status: boolean;
}

export function scheduleOperations(operations: ReadonlySet<string>): ScheduleOperations {
  return {
    schedules: operations.has("schedule_list") && operations.has("schedule_runs"),
    runbooks: operations.has("runbook_list") && operations.has("runbook_run"),
    status: operations.has("scheduler_status"),
  };
}

export interface ScheduleTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const realScheduleTimers: ScheduleTimers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export interface ScheduleModelOptions {
  readonly timers?: ScheduleTimers;
  /** Events within this many ms make one reload (the board's refresh waits as long). */
  readonly debounceMs?: number;
  /** How often scheduler_status is read between events (a stuck scheduler sends none). */
  readonly statusPollMs?: number;
  /** How many runs a schedule shows. */
  readonly runLimit?: number;
  readonly now?: () => Date;
  /** The zone times are shown in; this machine's when absent. */
  readonly timeZone?: string;
  /** Where a failed background read is reported (the Roundhouse output channel). */
  readonly report?: (message: string) => void;
}

type Loaded<T> = { readonly state: "loaded"; readonly value: T } | { readonly state: "failed"; readonly reason: string };

/** Icons for a run's status (the schedule shows its last run's). */
const RUN_ICONS: Readonly<Record<string, string>> = {
  done: "pass",
  failed: "error",
  denied: "shield",
  needed_person: "person",
  skipped: "debug-step-over",
  running: "sync~spin",
  pending: "loading~spin",
  queued: "clock",
};

const RUN_LABELS: Readonly<Record<string, string>> = { needed_person: "needed a person", denied: "denied a permission" };

export function runIcon(status: string | undefined): string {
  return status === undefined ? "calendar" : RUN_ICONS[status] ?? "circle-outline";
}

export function runStatusLabel(status: string): string {
  return RUN_LABELS[status] ?? status;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_MS = 86_400_000;

interface LocalParts {
  readonly day: number; // days since the epoch, on the zone's calendar
  readonly year: number;
  readonly month: number;
  readonly date: number;
  readonly weekday: string;
  readonly time: string;
}

function localParts(at: Date, timeZone?: string): LocalParts {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone, year: "numeric", month: "numeric", day: "numeric", weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
  });
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const year = Number(parts.year);
  const month = Number(parts.month);
  const date = Number(parts.day);
  return { day: Date.UTC(year, month - 1, date) / DAY_MS, year, month, date, weekday: parts.weekday, time: `${parts.hour}:${parts.minute}` };
}

/**
 * An instant on the local clock, short: "today 07:00", "tomorrow 07:00", "yesterday 23:30", else
 * "Mon 2 Mar 07:00" (with the year when it is not this year's).
 */
export function formatWhen(iso: string, now: Date, timeZone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) {
    return iso;
  }
  const when = localParts(at, timeZone);
  const today = localParts(now, timeZone);
  const days = when.day - today.day;
  if (days === 0) {
    return `today ${when.time}`;
  }
  if (days === 1) {
    return `tomorrow ${when.time}`;
  }
  if (days === -1) {
    return `yesterday ${when.time}`;
  }
  const year = when.year === today.year ? "" : ` ${when.year}`;
  return `${when.weekday} ${when.date} ${MONTHS[when.month - 1]}${year} ${when.time}`;
}

/** The schedule's description: its next firing on the local clock, "paused", or "ended". */
export function nextFiringText(schedule: Schedule, now: Date, timeZone?: string): string {
  if (schedule.paused) {
    return "paused";
  }
  return schedule.next_at ? formatWhen(schedule.next_at, now, timeZone) : "ended";
}

function scheduleIdOf(event: HubEvent): number | undefined {
  const data = event.data as { run?: { schedule_id?: unknown }; schedule?: unknown };
  if (typeof data.run?.schedule_id === "number") {
    return data.run.schedule_id;
  }
  if (typeof data.schedule === "object" && data.schedule !== null && typeof (data.schedule as { id?: unknown }).id === "number") {
    return (data.schedule as { id: number }).id;
  }
  return undefined;
}

function note(id: string, text: string, tooltip = text): NoteNode {
  return { kind: "note", id, text, tooltip };
}

/** Not thread-bound (the extension host has one thread); reads may overlap and the last answer wins. */
export class ScheduleModel implements Disposable {
  operations: ScheduleOperations = { schedules: false, runbooks: false, status: false };
  /** False until the hub's operations are known: the views stay empty rather than say it has none. */
  private detected = false;
  private lastReport: string | undefined;
  private scheduleList: Loaded<readonly ScheduleView[]> | undefined;
  private runbookList: Loaded<readonly Runbook[]> | undefined;
  private statusValue: SchedulerStatus | undefined;
  private readonly runs = new Map<number, Loaded<readonly ScheduleRun[]>>();
  private readonly loadingRuns = new Map<number, Promise<Loaded<readonly ScheduleRun[]>>>();
  private readonly changes = new Emitter<void>();
  private readonly timers: ScheduleTimers;
  private reloadTimer: unknown;
  private pollHandle: unknown;

  constructor(
    private readonly api: () => RoundhouseApi,
    private readonly projects: () => readonly Project[],
    private readonly options: ScheduleModelOptions = {},
  ) {
    this.timers = options.timers ?? realScheduleTimers;
  }

  /** Listens for any change the views must show. */
  onChange(listener: () => void): Disposable {
    return this.changes.on(listener);
  }

  /** Takes the hub's operations (read once per connection): the views show only what the hub offers. */
  detect(operations: ReadonlySet<string>): ScheduleOperations {
    this.operations = scheduleOperations(operations);
    this.detected = true;
    return this.operations;
  }

  /**
   * Reads the schedules, runbooks and the scheduler's status again. With forgetRuns (a refresh the user asked
   * for, a change made from here) every schedule's runs are read again when shown; a reload after events keeps
   * the runs no event named.
   */
  async load(forgetRuns = true): Promise<void> {
    const api = this.api();
    const read = async <T>(offered: boolean, call: () => Promise<T>): Promise<Loaded<T> | undefined> => {
      if (!offered) {
        return undefined;
      }
      try {
        return { state: "loaded", value: await call() };
      } catch (error) {
        return { state: "failed", reason: describeError(error) };
      }
    };
    const [schedules, runbooks, status] = await Promise.all([
      read(this.operations.schedules, async () => (await api.schedules()).schedules),
      read(this.operations.runbooks, async () => (await api.runbooks()).runbooks),
      read(this.operations.status, () => api.schedulerStatus()),
    ]);
    this.scheduleList = schedules;
    this.runbookList = runbooks;
    this.statusValue = status?.state === "loaded" ? status.value : undefined;
    if (forgetRuns) {
      this.forgetRuns();
    }
    this.changes.fire();
  }

  /** Reads only scheduler_status; tells the views when what they show of it changed. */
  async loadStatus(): Promise<SchedulerStatus | undefined> {
    if (!this.operations.status) {
      return undefined;
    }
    const before = this.statusValue;
    const status = await this.api().schedulerStatus();
    this.statusValue = status;
    if (before?.stuck !== status.stuck || before?.enabled !== status.enabled || before?.reason !== status.reason) {
      this.changes.fire();
    }
    return status;
  }

  /** Reads scheduler_status every statusPollMs (60 s) until disposed; starting twice starts once. */
  startPolling(): void {
    if (this.pollHandle === undefined) {
      this.pollHandle = this.timers.setInterval(() => {
        this.loadStatus().catch((error) => this.report(`could not read the scheduler's status: ${describeError(error)}`));
      }, this.options.statusPollMs ?? 60_000);
    }
  }

  /**
   * Applies a hub event: a runbook.* or schedule.* event reads the lists again once the events stop coming for
   * debounceMs; a schedule.* event also forgets the runs of the schedule it names (every schedule's when it
   * names none). Answers whether the event was one of those.
   */
  apply(event: HubEvent): boolean {
    const schedules = event.type.startsWith("schedule.");
    if (!schedules && !event.type.startsWith("runbook.")) {
      return false;
    }
    if (schedules) {
      const schedule = scheduleIdOf(event);
      this.forgetRuns(schedule);
    }
    this.scheduleReload();
    return true;
  }

  /** Forgets one schedule's runs (every schedule's without one), read or being read. */
  private forgetRuns(schedule?: number): void {
    if (schedule === undefined) {
      this.runs.clear();
      this.loadingRuns.clear();
    } else {
      this.runs.delete(schedule);
      this.loadingRuns.delete(schedule);
    }
  }

  /** Reports a failed background read once, not again while it keeps failing the same way. */
  private report(message: string): void {
    if (message !== this.lastReport) {
      this.lastReport = message;
      this.options.report?.(message);
    }
  }

  private scheduleReload(): void {
    if (this.reloadTimer === undefined) {
      this.reloadTimer = this.timers.setTimeout(() => {
        this.reloadTimer = undefined;
        this.load(false).catch((error) => this.report(`could not read the schedules: ${describeError(error)}`));
      }, this.options.debounceMs ?? 200);
    }
  }

  get status(): SchedulerStatus | undefined {
    return this.statusValue;
  }

  /** The schedules of the projects shown (the board's), in the hub's order. */
  get schedules(): readonly ScheduleView[] {
    const shown = new Set(this.projects().map((p) => p.id));
    return this.scheduleList?.state === "loaded" ? this.scheduleList.value.filter((v) => shown.has(v.schedule.project_id)) : [];
  }

  /** The runbooks of the projects shown, by name. */
  get runbooks(): readonly Runbook[] {
    const shown = new Set(this.projects().map((p) => p.id));
    return this.runbookList?.state === "loaded"
      ? this.runbookList.value.filter((r) => shown.has(r.project_id)).slice().sort((a, b) => a.name.localeCompare(b.name))
      : [];
  }

  schedule(id: number): ScheduleView | undefined {
    return this.schedules.find((v) => v.schedule.id === id);
  }

  /** A schedule's newest runs, read once and kept until an event on the schedule. */
  async loadRuns(schedule: number): Promise<Loaded<readonly ScheduleRun[]>> {
    const known = this.runs.get(schedule);
    if (known) {
      return known;
    }
    let loading = this.loadingRuns.get(schedule);
    if (!loading) {
      const read = (async (): Promise<Loaded<readonly ScheduleRun[]>> => {
        try {
          return { state: "loaded", value: (await this.api().scheduleRuns(schedule, this.options.runLimit ?? 20)).runs };
        } catch (error) {
          return { state: "failed", reason: describeError(error) };
        }
      })().then((state) => {
        // Kept only if no event forgot this schedule's runs while they were read (the answer may predate it).
        if (this.loadingRuns.get(schedule) === read) {
          this.loadingRuns.delete(schedule);
          this.runs.set(schedule, state);
        }
        return state;
      });
      this.loadingRuns.set(schedule, read);
      loading = read;
    }
    return loading;
  }

  private project(id: number): Project | undefined {
    return this.projects().find((p) => p.id === id);
  }

  /** The Schedules view: the scheduler's warning if any, then projects with schedules; a schedule's runs. */
  async scheduleChildren(node?: ScheduleNode): Promise<ScheduleNode[]> {
    if (node?.kind === "scheduleProject") {
      return this.schedules.filter((v) => v.schedule.project_id === node.project.id).map((view) => ({ kind: "schedule", project: node.project, view }));
    }
    if (node?.kind === "schedule") {
      const state = await this.loadRuns(node.view.schedule.id);
      if (state.state === "failed") {
        return [note(`runs-failed:${node.view.schedule.id}`, state.reason)];
      }
      if (state.value.length === 0) {
        return [note(`no-runs:${node.view.schedule.id}`, "No runs yet")];
      }
      const schedule = node.view.schedule;
      return state.value.map((run) => (run.task_id === undefined ? { kind: "run", schedule, run } : { kind: "run", schedule, run, task_id: run.task_id }));
    }
    if (node || !this.detected) {
      return [];
    }
    const top: ScheduleNode[] = [];
    const status = this.statusValue;
    if (status && (status.stuck || !status.enabled)) {
      top.push({ kind: "scheduler", status });
    }
    if (!this.operations.schedules) {
      return [...top, note("no-schedules-module", "This hub has no schedules", "Its operations do not include schedule_list: update Roundhouse")];
    }
    if (this.scheduleList?.state === "failed") {
      return [...top, note("schedules-failed", this.scheduleList.reason)];
    }
    const schedules = this.schedules;
    if (this.scheduleList && schedules.length === 0) {
      return [...top, note("no-schedules", "No schedules yet", "Create one with `roundhouse schedule create` or the schedule_create operation")];
    }
    const projects = this.projects().filter((p) => schedules.some((v) => v.schedule.project_id === p.id));
    return [...top, ...projects.map((project): ScheduleNode => ({ kind: "scheduleProject", project }))];
  }

  /** The Runbooks view: runbooks by name, with their project and driver. */
  runbookChildren(node?: RunbookNode): RunbookNode[] {
    if (node || !this.detected) {
      return [];
    }
    if (!this.operations.runbooks) {
      return [note("no-runbooks-module", "This hub has no runbooks", "Its operations do not include runbook_list: update Roundhouse")];
    }
    if (this.runbookList?.state === "failed") {
      return [note("runbooks-failed", this.runbookList.reason)];
    }
    const list = this.runbooks;
    if (this.runbookList && list.length === 0) {
      return [note("no-runbooks", "No runbooks yet", "Save one with `roundhouse runbook create` or the runbook_create operation")];
    }
    return list.flatMap((runbook): RunbookNode[] => {
      const project = this.project(runbook.project_id);
      return project ? [{ kind: "runbook", project, runbook }] : [];
    });
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** An instant as the views show it (formatWhen on this model's clock and zone). */
  formatTime(iso: string): string {
    return formatWhen(iso, this.now(), this.options.timeZone);
  }

  view(node: ScheduleNode | RunbookNode): NodeView {
    const leaf = { expandable: false, expanded: false };
    switch (node.kind) {
      case "note":
        return { id: `note:${node.id}`, label: node.text, description: "", tooltip: node.tooltip, contextValue: "note", icon: "info", ...leaf };
      case "scheduler": {
        const status = node.status;
        if (status.stuck) {
          const facts = [
            status.last_tick ? `last tick ${this.formatTime(status.last_tick)}` : "no tick yet",
            status.lag_millis ? `oldest due firing ${duration(status.lag_millis)} late` : "",
            status.next_firing ? `next firing ${this.formatTime(status.next_firing)}` : "",
          ].filter((s) => s.length > 0);
          return {
            id: "scheduler", label: "Scheduler looks stuck", description: status.reason ?? "",
            tooltip: [`The scheduler looks stuck${status.reason ? `: ${status.reason}` : ""}`, facts.join(" · "), "Run `roundhouse doctor` on the hub's machine"].join("\n"),
            contextValue: "scheduler.stuck", icon: "warning", ...leaf,
          };
        }
        return {
          id: "scheduler", label: "Scheduler is off", description: "schedules do not fire",
          tooltip: "The hub's scheduler is switched off by configuration (ROUNDHOUSE_SCHEDULER=off)", contextValue: "scheduler.off", icon: "circle-slash", ...leaf,
        };
      }
      case "scheduleProject": {
        const count = this.schedules.filter((v) => v.schedule.project_id === node.project.id).length;
        return {
          id: `schedules:${node.project.id}`, label: node.project.name, description: String(count), tooltip: node.project.path ?? node.project.name,
          contextValue: "scheduleProject", icon: "repo", expandable: true, expanded: true,
        };
      }
      case "schedule":
        return this.scheduleView(node.view);
      case "run":
        return this.runView(node.schedule, node.run);
      case "runbook": {
        const runbook = node.runbook;
        const driver = runbook.driver ?? "default driver";
        return {
          id: `runbook:${runbook.id}`, label: runbook.name, description: `${node.project.name} · ${driver}`,
          tooltip: [
            `${runbook.name} (runbook ${runbook.id}) in ${node.project.name}`,
            `driver: ${driver}${runbook.model ? ` · model: ${runbook.model}` : ""}${runbook.permission_mode ? ` · permissions: ${runbook.permission_mode}` : ""}`,
            ...(runbook.tags && runbook.tags.length > 0 ? [`tags: ${runbook.tags.join(", ")}`] : []),
            "",
            runbook.prompt,
          ].join("\n"),
          contextValue: "runbook", icon: "notebook", ...leaf,
        };
      }
    }
  }

  private scheduleView(view: ScheduleView): NodeView {
    const schedule = view.schedule;
    const last = view.last_run;
    const what = view.runbook !== undefined ? `runbook ${view.runbook}` : `prompt: ${firstLine(schedule.prompt ?? "")}`;
    return {
      id: `schedule:${schedule.id}`, label: schedule.name, description: nextFiringText(schedule, this.now(), this.options.timeZone),
      tooltip: [
        `${schedule.name} (schedule ${schedule.id}) runs ${what}`,
        `recurrence: ${schedule.recurrence} in ${schedule.zone}`,
        schedule.paused ? "paused" : schedule.next_at ? `next firing: ${this.formatTime(schedule.next_at)}` : "no further firings",
        `missed firings: ${schedule.missed === "run_once" ? "run once" : "skip"} · overlap: ${schedule.overlap}`,
        last ? `last run: ${this.formatTime(last.scheduled_at)} · ${runStatusLabel(last.status)}${last.reason ? ` (${last.reason})` : ""}${last.task_id !== undefined ? ` · task #${last.task_id}` : ""}` : "no runs yet",
      ].join("\n"),
      contextValue: `schedule.${schedule.paused ? "paused" : "active"}`, icon: runIcon(last?.status), expandable: true, expanded: false,
    };
  }

  private runView(schedule: Schedule, run: ScheduleRun): NodeView {
    return {
      id: `run:${schedule.id}:${run.scheduled_at}`, label: this.formatTime(run.scheduled_at),
      description: [runStatusLabel(run.status), run.task_id !== undefined ? `#${run.task_id}` : ""].filter((s) => s.length > 0).join(" · "),
      tooltip: [
        `due ${run.scheduled_at}`,
        `${runStatusLabel(run.status)}${run.reason ? `: ${run.reason}` : ""}`,
        run.task_id !== undefined ? `task #${run.task_id} (click to open its transcript)` : "no task",
        run.fired_at ? `fired ${this.formatTime(run.fired_at)}` : "",
        run.ended_at ? `ended ${this.formatTime(run.ended_at)}` : "",
      ].filter((s) => s.length > 0).join("\n"),
      contextValue: run.task_id !== undefined ? "run.task" : "run", icon: runIcon(run.status), expandable: false, expanded: false,
    };
  }

  dispose(): void {
    if (this.reloadTimer !== undefined) {
      this.timers.clearTimeout(this.reloadTimer);
      this.reloadTimer = undefined;
    }
    if (this.pollHandle !== undefined) {
      this.timers.clearInterval(this.pollHandle);
      this.pollHandle = undefined;
    }
  }
}

/** "45 s", "30 min", "3 h 5 min". */
export function duration(millis: number): string {
  const seconds = Math.round(millis / 1000);
  if (seconds < 120) {
    return `${seconds} s`;
  }
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 === 0 ? "" : ` ${minutes % 60} min`}`;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
