// The Schedules and Runbooks views and their commands over the vscode stub and the fake bridge, fed with
// answers recorded in the hub's wire shape (snake_case, ISO instants, absent fields left out). Timers are
// driven by the test: no sleeps.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { commands, recorder, ThemeIcon, TreeItem, TreeItemCollapsibleState } from "../stub/vscode";
import { formatWhen, RunbookNode, ScheduleModel, ScheduleNode, ScheduleTimers } from "../../src/model/schedules";
import { RoundhouseApi } from "../../src/protocol/api";
import { HubEvent, Project } from "../../src/protocol/types";
import { RunbooksTreeProvider, SchedulesTreeProvider } from "../../src/views/schedulesTree";
import { registerScheduleCommands, ScheduleFace } from "../../src/scheduleCommands";
import { SCHEDULE_COMMAND_IDS } from "../../src/commands-ids";
import { FakeBridge } from "./fakeBridge";

const web: Project = { id: 1, name: "web", path: "/src/web" };
const api: Project = { id: 2, name: "api", path: "/src/api" };
const NOW = new Date("2026-03-02T10:00:00Z"); // a Monday; 11:00 in Berlin
const ZONE = "Europe/Berlin";

// Recorded answers (hub JSON as the bridge passes it on).
const SCHEDULE_LIST = {
  schedules: [
    {
      schedule: {
        id: 1, project_id: 1, name: "Weekday triage", runbook_id: 4, recurrence: "0 7 * * 1-5", zone: "Europe/Berlin",
        missed: "skip", overlap: "queue", paused: false, next_at: "2026-03-03T06:00:00Z", created_by: "user",
        created_at: "2026-02-01T09:00:00Z", updated_at: "2026-02-01T09:00:00Z",
      },
      runbook: "triage",
      last_run: {
        schedule_id: 1, scheduled_at: "2026-03-02T06:00:00Z", status: "denied", task_id: 42, turn_id: 77,
        reason: "a permission was denied: Bash(git push)", fired_at: "2026-03-02T06:00:01Z", ended_at: "2026-03-02T06:03:10Z",
      },
    },
    {
      schedule: {
        id: 2, project_id: 1, name: "Nightly deps", prompt: "Update the dependencies\nand run the tests", recurrence: "FREQ=DAILY;BYHOUR=2;BYMINUTE=30",
        zone: "America/New_York", missed: "run_once", overlap: "skip", paused: true, next_at: "2026-03-03T07:30:00Z", created_by: "user",
        created_at: "2026-02-01T09:00:00Z", updated_at: "2026-03-01T09:00:00Z",
      },
    },
    {
      schedule: {
        id: 3, project_id: 2, name: "API report", runbook_id: 5, recurrence: "0 9 * * 1", zone: "UTC", missed: "skip", overlap: "allow",
        paused: false, next_at: "2026-03-09T09:00:00Z", created_by: "user", created_at: "2026-02-01T09:00:00Z", updated_at: "2026-02-01T09:00:00Z",
      },
      runbook: "report",
      last_run: { schedule_id: 3, scheduled_at: "2026-03-02T09:00:00Z", status: "running", task_id: 50, turn_id: 80, fired_at: "2026-03-02T09:00:00Z" },
    },
    {
      schedule: {
        id: 9, project_id: 7, name: "Elsewhere", prompt: "x", recurrence: "@daily", zone: "UTC", missed: "skip", overlap: "skip", paused: false,
        next_at: "2026-03-03T00:00:00Z", created_by: "user", created_at: "2026-02-01T09:00:00Z", updated_at: "2026-02-01T09:00:00Z",
      },
    },
  ],
};
const RUNBOOK_LIST = {
  runbooks: [
    { id: 5, project_id: 2, name: "report", prompt: "Write the weekly API report", priority: "normal", tags: [], send_context: true, created_by: "user" },
    { id: 4, project_id: 1, name: "triage", prompt: "Triage the new issues", driver: "claude", model: "opus", priority: "high", tags: ["triage", "daily"], send_context: true, created_by: "user" },
    { id: 6, project_id: 7, name: "hidden", prompt: "not on the board", priority: "normal", tags: [], send_context: false, created_by: "user" },
  ],
};
const RUNS_OF_1 = {
  schedule: SCHEDULE_LIST.schedules[0].schedule,
  runs: [
    { schedule_id: 1, scheduled_at: "2026-03-02T06:00:00Z", status: "denied", task_id: 42, turn_id: 77, reason: "a permission was denied: Bash(git push)", fired_at: "2026-03-02T06:00:01Z", ended_at: "2026-03-02T06:03:10Z" },
    { schedule_id: 1, scheduled_at: "2026-02-27T06:00:00Z", status: "skipped", reason: "the previous run (task 40) was still going; skipped by the overlap policy", fired_at: "2026-02-27T06:00:00Z" },
    { schedule_id: 1, scheduled_at: "2026-02-26T06:00:00Z", status: "done", task_id: 40, turn_id: 70, fired_at: "2026-02-26T06:00:00Z", ended_at: "2026-02-26T06:40:00Z" },
  ],
};
const STATUS_OK = {
  enabled: true, last_tick: "2026-03-02T09:59:30Z", last_tick_millis: 3, lag_millis: 0, next_firing: "2026-03-03T06:00:00Z",
  active_schedules: 3, open_runs: 1, stuck: false,
};
const STATUS_STUCK = {
  ...STATUS_OK, last_tick: "2026-03-02T09:30:00Z", lag_millis: 1_800_000, stuck: true,
  reason: "no tick for 30 minutes; the oldest due firing is 30 minutes late",
};
const OPERATIONS = ["schedule_list", "schedule_runs", "schedule_pause", "schedule_resume", "schedule_delete", "schedule_preview",
  "runbook_list", "runbook_run", "runbook_delete", "scheduler_status"];

type Calls = Record<string, (args: Record<string, unknown>) => unknown>;

const standard: Calls = {
  schedule_list: () => SCHEDULE_LIST,
  runbook_list: () => RUNBOOK_LIST,
  scheduler_status: () => STATUS_OK,
  schedule_runs: (args) => (args.schedule === "1" ? RUNS_OF_1 : { schedule: SCHEDULE_LIST.schedules[2].schedule, runs: [] }),
};

/** Timeouts and intervals that run only when the test says so. */
class ManualTimers implements ScheduleTimers {
  private readonly timeouts = new Map<number, () => void>();
  private readonly intervals = new Map<number, () => void>();
  private next = 0;
  setTimeout(run: () => void): unknown {
    this.timeouts.set(++this.next, run);
    return this.next;
  }
  clearTimeout(handle: unknown): void {
    this.timeouts.delete(handle as number);
  }
  setInterval(run: () => void): unknown {
    this.intervals.set(++this.next, run);
    return this.next;
  }
  clearInterval(handle: unknown): void {
    this.intervals.delete(handle as number);
  }
  /** Runs the pending timeouts (each once). */
  fireTimeouts(): void {
    const due = [...this.timeouts.values()];
    this.timeouts.clear();
    due.forEach((run) => run());
  }
  tickIntervals(): void {
    [...this.intervals.values()].forEach((run) => run());
  }
  get pending(): number {
    return this.timeouts.size;
  }
  get intervalCount(): number {
    return this.intervals.size;
  }
}

function bridgeWith(callsFor: Calls): FakeBridge {
  const bridge = new FakeBridge();
  bridge.answers["roundhouse/call"] = (params) => {
    const handler = callsFor[String(params.name)];
    if (!handler) {
      return Promise.reject({ code: -32602, message: `no operation named '${String(params.name)}'` });
    }
    try {
      return handler((params.arguments ?? {}) as Record<string, unknown>);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return bridge;
}

function calls(bridge: FakeBridge, name?: string): Record<string, unknown>[] {
  return bridge.requests.filter((r) => r.method === "roundhouse/call" && (name === undefined || r.params.name === name))
    .map((r) => r.params.arguments as Record<string, unknown>);
}

async function setup(callsFor: Calls = standard, operations = OPERATIONS) {
  const bridge = bridgeWith(callsFor);
  const rpc = new RoundhouseApi(bridge);
  const timers = new ManualTimers();
  const reports: string[] = [];
  const model = new ScheduleModel(() => rpc, () => [web, api], { timers, now: () => NOW, timeZone: ZONE, report: (m) => reports.push(m) });
  model.detect(new Set(operations));
  await model.load();
  const schedulesTree = new SchedulesTreeProvider(model);
  const runbooksTree = new RunbooksTreeProvider(model);
  const opened: number[] = [];
  const face: ScheduleFace = { api: rpc, schedules: model, openTranscript: (task) => { opened.push(task); return Promise.resolve(); } };
  return { bridge, rpc, timers, model, schedulesTree, runbooksTree, face, opened, reports };
}

function item(tree: SchedulesTreeProvider, node: ScheduleNode): TreeItem;
function item(tree: RunbooksTreeProvider, node: RunbookNode): TreeItem;
function item(tree: SchedulesTreeProvider | RunbooksTreeProvider, node: ScheduleNode | RunbookNode): TreeItem {
  return (tree as SchedulesTreeProvider).getTreeItem(node as ScheduleNode) as unknown as TreeItem;
}

/** Resolves at the model's next change. */
function nextChange(model: ScheduleModel): Promise<void> {
  return new Promise((resolve) => {
    const listening = model.onChange(() => {
      listening.dispose();
      resolve();
    });
  });
}

function event(seq: number, type: string, data: Record<string, unknown>, task?: number): HubEvent {
  return { seq, type, at: "2026-03-02T10:00:00Z", actor: "scheduler", project_id: 1, ...(task === undefined ? {} : { task_id: task }), data };
}

async function withCommands(face: ScheduleFace, body: () => Promise<void>): Promise<void> {
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  registerScheduleCommands(context, face);
  try {
    assert.equal(context.subscriptions.length, SCHEDULE_COMMAND_IDS.length, "every schedule command is registered");
    await body();
  } finally {
    context.subscriptions.forEach((s) => s.dispose());
  }
}

beforeEach(() => recorder.reset());

test("times are shown on the local clock: today, tomorrow, yesterday, else weekday and date (with the year when not this year's)", () => {
  assert.equal(formatWhen("2026-03-02T16:30:00Z", NOW, ZONE), "today 17:30");
  assert.equal(formatWhen("2026-03-02T23:30:00Z", NOW, ZONE), "tomorrow 00:30", "past midnight in Berlin is tomorrow there");
  assert.equal(formatWhen("2026-03-02T23:30:00Z", NOW, "America/New_York"), "today 18:30");
  assert.equal(formatWhen("2026-03-01T06:00:00Z", NOW, ZONE), "yesterday 07:00");
  assert.equal(formatWhen("2026-03-09T06:00:00Z", NOW, ZONE), "Mon 9 Mar 07:00");
  assert.equal(formatWhen("2026-03-30T06:00:00Z", NOW, ZONE), "Mon 30 Mar 08:00", "summer time in Berlin from 29 March");
  assert.equal(formatWhen("2027-01-04T06:00:00Z", NOW, ZONE), "Mon 4 Jan 2027 07:00");
  assert.equal(formatWhen("not a time", NOW, ZONE), "not a time");
});

test("the Schedules view groups the board's projects' schedules: next firing, paused, last outcome's icon, policies and last run in the tooltip", async () => {
  const { schedulesTree: tree, bridge } = await setup();
  assert.deepEqual(bridge.requests.map((r) => [r.params.name, r.params.arguments]),
    [["schedule_list", {}], ["runbook_list", {}], ["scheduler_status", {}]], "read together, for every project");
  const top = await tree.getChildren();
  assert.deepEqual(top.map((n) => item(tree, n).label), ["web", "api"], "a project off the board (7) is not shown; no scheduler warning when it is fine");
  assert.equal(item(tree, top[0]).description, "2");
  assert.equal(item(tree, top[0]).collapsibleState, TreeItemCollapsibleState.Expanded);

  const [triage, nightly] = await tree.getChildren(top[0]);
  const triageItem = item(tree, triage);
  assert.equal(triageItem.label, "Weekday triage");
  assert.equal(triageItem.description, "tomorrow 07:00", "next firing on the local clock");
  assert.equal(triageItem.contextValue, "schedule.active", "Pause, not Resume");
  assert.equal((triageItem.iconPath as ThemeIcon).id, "shield", "last run denied a permission");
  assert.equal(triageItem.collapsibleState, TreeItemCollapsibleState.Collapsed);
  assert.equal(triageItem.tooltip, [
    "Weekday triage (schedule 1) runs runbook triage",
    "recurrence: 0 7 * * 1-5 in Europe/Berlin",
    "next firing: tomorrow 07:00",
    "missed firings: skip · overlap: queue",
    "last run: today 07:00 · denied a permission (a permission was denied: Bash(git push)) · task #42",
  ].join("\n"));

  const nightlyItem = item(tree, nightly);
  assert.equal(nightlyItem.description, "paused");
  assert.equal(nightlyItem.contextValue, "schedule.paused", "Resume, not Pause");
  assert.equal((nightlyItem.iconPath as ThemeIcon).id, "calendar", "no run yet");
  assert.match(String(nightlyItem.tooltip), /runs prompt: Update the dependencies\n/);
  assert.match(String(nightlyItem.tooltip), /missed firings: run once · overlap: skip/);
  assert.match(String(nightlyItem.tooltip), /no runs yet$/);

  const [report] = await tree.getChildren(top[1]);
  assert.equal(item(tree, report).description, "Mon 9 Mar 10:00");
  assert.equal((item(tree, report).iconPath as ThemeIcon).id, "sync~spin", "the last run is still running");
});

test("a schedule's runs come from schedule_runs when expanded, read once until an event names the schedule; a run's task opens its transcript", async () => {
  const { schedulesTree: tree, bridge, model, timers } = await setup();
  const [web1] = await tree.getChildren();
  const [triage] = await tree.getChildren(web1);
  const runs = await tree.getChildren(triage);
  assert.deepEqual(calls(bridge, "schedule_runs"), [{ schedule: "1", limit: 20 }]);
  const items = runs.map((n) => item(tree, n));
  assert.deepEqual(items.map((i) => i.label), ["today 07:00", "Fri 27 Feb 07:00", "Thu 26 Feb 07:00"]);
  assert.deepEqual(items.map((i) => i.description), ["denied a permission · #42", "skipped", "done · #40"]);
  assert.deepEqual(items.map((i) => (i.iconPath as ThemeIcon).id), ["shield", "debug-step-over", "pass"]);
  assert.deepEqual(items.map((i) => i.contextValue), ["run.task", "run", "run.task"]);
  assert.deepEqual(items[0].command, { command: "roundhouse.openRunTranscript", title: "Open Transcript", arguments: [runs[0]] });
  assert.equal(items[1].command, undefined, "a skipped run has no task to open");
  assert.match(String(items[1].tooltip), /skipped: the previous run \(task 40\) was still going/);

  const [, report] = await tree.getChildren();
  const [reportSchedule] = await tree.getChildren(report);
  const none = await tree.getChildren(reportSchedule);
  assert.deepEqual(none.map((n) => item(tree, n).label), ["No runs yet"]);

  await tree.getChildren(triage);
  await tree.getChildren(reportSchedule);
  assert.equal(calls(bridge, "schedule_runs").length, 2, "kept while nothing happened");
  model.apply(event(10, "schedule.fired", { run: { schedule_id: 3, scheduled_at: "2026-03-09T09:00:00Z", status: "pending" }, schedule: "API report" }));
  await tree.getChildren(triage);
  await tree.getChildren(reportSchedule);
  assert.deepEqual(calls(bridge, "schedule_runs").slice(2), [{ schedule: "3", limit: 20 }], "only the named schedule's runs are read again");

  const reloaded = nextChange(model);
  timers.fireTimeouts();
  await reloaded;
  assert.equal(calls(bridge, "schedule_list").length, 2, "the lists are read again after the delay");
  await tree.getChildren(triage);
  assert.equal(calls(bridge, "schedule_runs").length, 3, "the reload after events keeps the runs no event named");
  await model.load();
  await tree.getChildren(triage);
  assert.deepEqual(calls(bridge, "schedule_runs").at(-1), { schedule: "1", limit: 20 }, "a refresh reads every schedule's runs again");
});

test("runs being read when an event names their schedule are not kept: the next look reads them again", async () => {
  let answer: (value: unknown) => void = () => undefined;
  const { model, bridge } = await setup({ ...standard, schedule_runs: () => new Promise((resolve) => { answer = resolve; }) });
  const reading = model.loadRuns(1);
  model.apply(event(30, "schedule.run_ended", { run: { schedule_id: 1, scheduled_at: "2026-03-02T06:00:00Z", status: "done", task_id: 42 }, schedule: "Weekday triage" }));
  answer({ schedule: RUNS_OF_1.schedule, runs: RUNS_OF_1.runs.slice(1) });
  const stale = await reading;
  assert.equal(stale.state === "loaded" && stale.value.length, 2, "the caller still gets its answer");
  const again = model.loadRuns(1);
  answer(RUNS_OF_1);
  const fresh = await again;
  assert.equal(fresh.state === "loaded" && fresh.value.length, 3);
  assert.equal(calls(bridge, "schedule_runs").length, 2, "read again after the event");
  model.dispose();
});

test("runbook.* and schedule.* events from the bridge read the lists again once, debounced; other events do not", async () => {
  const { bridge, rpc, model, timers, schedulesTree, runbooksTree } = await setup();
  rpc.onEvent((e) => model.apply(e));
  let schedulesRedrawn = 0;
  let runbooksRedrawn = 0;
  schedulesTree.onDidChangeTreeData(() => schedulesRedrawn++);
  runbooksTree.onDidChangeTreeData(() => runbooksRedrawn++);

  bridge.push("roundhouse/event", event(20, "task.updated", { fields: ["title"] }, 42));
  assert.equal(timers.pending, 0, "a task event does not read the schedules");

  bridge.push("roundhouse/event", event(21, "schedule.run_ended", { run: { schedule_id: 1, scheduled_at: "2026-03-02T06:00:00Z", status: "done", task_id: 42 }, schedule: "Weekday triage" }, 42));
  bridge.push("roundhouse/event", event(22, "runbook.updated", { runbook: { id: 4, project_id: 1, name: "triage" }, created: false }));
  bridge.push("roundhouse/event", event(23, "schedule.paused", { schedule: { id: 1, project_id: 1, name: "Weekday triage", paused: true }, change: "paused" }));
  assert.equal(timers.pending, 1, "three events, one pending reload");
  assert.equal(calls(bridge, "schedule_list").length, 1, "nothing read before the delay");

  const reloaded = nextChange(model);
  timers.fireTimeouts();
  await reloaded;
  assert.equal(calls(bridge, "schedule_list").length, 2);
  assert.equal(calls(bridge, "runbook_list").length, 2);
  assert.equal(calls(bridge, "scheduler_status").length, 2);
  assert.equal(schedulesRedrawn, 1);
  assert.equal(runbooksRedrawn, 1);

  bridge.push("roundhouse/event", event(24, "schedule.deleted", { schedule: { id: 2 }, change: "deleted" }));
  assert.equal(timers.pending, 1, "a later event reloads again");
  model.dispose();
  assert.equal(timers.pending, 0, "dispose cancels the pending reload");
});

test("the Runbooks view lists the board's projects' runbooks by name with project and driver", async () => {
  const { runbooksTree: tree } = await setup();
  const nodes = tree.getChildren();
  const items = nodes.map((n) => item(tree, n));
  assert.deepEqual(items.map((i) => i.label), ["report", "triage"], "by name; project 7's runbook is not shown");
  assert.deepEqual(items.map((i) => i.description), ["api · default driver", "web · claude"]);
  assert.deepEqual(items.map((i) => i.contextValue), ["runbook", "runbook"]);
  assert.equal((items[1].iconPath as ThemeIcon).id, "notebook");
  assert.equal(items[1].tooltip, "triage (runbook 4) in web\ndriver: claude · model: opus\ntags: triage, daily\n\nTriage the new issues");
  assert.equal(items[1].collapsibleState, TreeItemCollapsibleState.None);
});

test("a stuck or switched-off scheduler is the Schedules view's first item; the status poll finds it without an event", async () => {
  let status: Record<string, unknown> = STATUS_OK;
  const { schedulesTree: tree, model, timers, bridge } = await setup({ ...standard, scheduler_status: () => status });
  assert.equal((await tree.getChildren())[0].kind, "scheduleProject");

  model.startPolling();
  model.startPolling();
  assert.equal(timers.intervalCount, 1, "one poll however often it is started");
  status = STATUS_STUCK;
  const found = nextChange(model);
  timers.tickIntervals();
  await found;
  assert.equal(calls(bridge, "schedule_list").length, 1, "the poll reads only scheduler_status");
  const [warning, ...rest] = await tree.getChildren();
  const warningItem = item(tree, warning);
  assert.equal(warningItem.label, "Scheduler looks stuck");
  assert.equal(warningItem.description, STATUS_STUCK.reason);
  assert.equal((warningItem.iconPath as ThemeIcon).id, "warning");
  assert.equal(warningItem.contextValue, "scheduler.stuck");
  assert.match(String(warningItem.tooltip), /last tick today 10:30 · oldest due firing 30 min late · next firing tomorrow 07:00/);
  assert.deepEqual(rest.map((n) => item(tree, n).label), ["web", "api"]);

  let redrawn = 0;
  tree.onDidChangeTreeData(() => redrawn++);
  await model.loadStatus();
  assert.equal(redrawn, 0, "the same status again draws nothing");

  status = { ...STATUS_OK, enabled: false, last_tick: undefined, next_firing: undefined };
  await model.loadStatus();
  assert.equal(redrawn, 1);
  const off = item(tree, (await tree.getChildren())[0]);
  assert.equal(off.label, "Scheduler is off");
  assert.match(String(off.tooltip), /ROUNDHOUSE_SCHEDULER=off/);

  model.dispose();
  assert.equal(timers.intervalCount, 0, "dispose stops the poll");
});

test("a hub without the operations, a refused list and empty lists each say so in the view; before the hub is known the views are empty", async () => {
  const rpc = new RoundhouseApi(bridgeWith(standard));
  const unknown = new ScheduleModel(() => rpc, () => [web]);
  assert.deepEqual(await new SchedulesTreeProvider(unknown).getChildren(), [], "not yet connected: no claim that the hub has none");
  assert.deepEqual(new RunbooksTreeProvider(unknown).getChildren(), []);

  const old = await setup(standard, ["task_create"]);
  assert.equal(calls(old.bridge).length, 0, "nothing is called that the hub does not offer");
  assert.deepEqual((await old.schedulesTree.getChildren()).map((n) => item(old.schedulesTree, n).label), ["This hub has no schedules"]);
  assert.deepEqual(old.runbooksTree.getChildren().map((n) => item(old.runbooksTree, n).label), ["This hub has no runbooks"]);

  const refused = await setup({ ...standard, schedule_list: () => { throw { code: -32803, message: "the hub's store is closed" }; } });
  assert.deepEqual((await refused.schedulesTree.getChildren()).map((n) => item(refused.schedulesTree, n).label), ["the hub's store is closed"]);
  assert.deepEqual(refused.runbooksTree.getChildren().map((n) => item(refused.runbooksTree, n).label), ["report", "triage"], "runbooks still shown");

  const empty = await setup({ ...standard, schedule_list: () => ({ schedules: [] }), runbook_list: () => ({ runbooks: [] }), scheduler_status: () => STATUS_STUCK });
  assert.deepEqual((await empty.schedulesTree.getChildren()).map((n) => item(empty.schedulesTree, n).label), ["Scheduler looks stuck", "No schedules yet"]);
  assert.deepEqual(empty.runbooksTree.getChildren().map((n) => item(empty.runbooksTree, n).label), ["No runbooks yet"]);
});

test("Pause and Resume call the hub with the schedule's id and read the list again; from the palette only the schedules they apply to are offered", async () => {
  const { face, bridge } = await setup({
    ...standard,
    schedule_pause: () => ({ ...SCHEDULE_LIST.schedules[0].schedule, paused: true }),
    schedule_resume: () => ({ ...SCHEDULE_LIST.schedules[1].schedule, paused: false }),
  });
  await withCommands(face, async () => {
    const triage: ScheduleNode = { kind: "schedule", project: web, view: SCHEDULE_LIST.schedules[0] as never };
    await commands.executeCommand("roundhouse.pauseSchedule", triage);
    assert.deepEqual(calls(bridge, "schedule_pause"), [{ schedule: "1" }]);
    assert.equal(calls(bridge, "schedule_list").length, 2, "read again after the change");
    assert.equal(recorder.shown.at(-1)?.message, "Roundhouse: paused schedule Weekday triage");

    recorder.reset();
    recorder.answers = ["Nightly deps"];
    await commands.executeCommand("roundhouse.resumeSchedule");
    assert.deepEqual(recorder.shown[0].items, ["Nightly deps"], "only the paused schedule can be resumed");
    assert.deepEqual(calls(bridge, "schedule_resume"), [{ schedule: "2" }]);
    assert.equal(recorder.shown.at(-1)?.message, "Roundhouse: resumed schedule Nightly deps; next firing tomorrow 08:30");

    recorder.reset();
    recorder.answers = [undefined];
    await commands.executeCommand("roundhouse.pauseSchedule");
    assert.deepEqual(recorder.shown[0].items, ["Weekday triage", "API report"]);
    assert.equal(calls(bridge, "schedule_pause").length, 1, "dismissed: nothing paused");
  });
});

test("Preview lists the next firings on the local clock and in the schedule's zone; Delete asks first", async () => {
  const { face, bridge } = await setup({
    ...standard,
    schedule_preview: (args) => ({
      recurrence: "0 7 * * 1-5", zone: "Europe/Berlin",
      firings: args.schedule === "1"
        ? [{ at: "2026-03-03T06:00:00Z", local: "2026-03-03T07:00+01:00" }, { at: "2026-03-04T06:00:00Z", local: "2026-03-04T07:00+01:00" }]
        : [],
    }),
    schedule_delete: () => ({ schedule: 2, name: "Nightly deps" }),
  });
  await withCommands(face, async () => {
    const triage: ScheduleNode = { kind: "schedule", project: web, view: SCHEDULE_LIST.schedules[0] as never };
    await commands.executeCommand("roundhouse.previewSchedule", triage);
    assert.deepEqual(calls(bridge, "schedule_preview"), [{ schedule: "1", count: 10 }]);
    assert.equal(recorder.shown[0].kind, "quickPick");
    assert.equal(recorder.shown[0].message, "Next firings of Weekday triage: 0 7 * * 1-5 in Europe/Berlin");
    assert.deepEqual(recorder.shown[0].items, ["tomorrow 07:00", "Wed 4 Mar 07:00"]);

    recorder.reset();
    const nightly: ScheduleNode = { kind: "schedule", project: web, view: SCHEDULE_LIST.schedules[1] as never };
    await commands.executeCommand("roundhouse.previewSchedule", nightly);
    assert.equal(recorder.shown[0].kind, "information");
    assert.match(recorder.shown[0].message, /schedule Nightly deps fires no more/);

    recorder.reset();
    recorder.answers = [undefined];
    await commands.executeCommand("roundhouse.deleteSchedule", nightly);
    assert.equal(recorder.shown[0].modal, true);
    assert.deepEqual(recorder.shown[0].items, ["Delete"]);
    assert.match(recorder.shown[0].message, /Delete schedule Nightly deps and its run history\?/);
    assert.equal(calls(bridge, "schedule_delete").length, 0, "dismissed: nothing deleted");

    recorder.answers = ["Delete"];
    const listsBefore = calls(bridge, "schedule_list").length;
    await commands.executeCommand("roundhouse.deleteSchedule", nightly);
    assert.deepEqual(calls(bridge, "schedule_delete"), [{ schedule: "2" }]);
    assert.equal(calls(bridge, "schedule_list").length, listsBefore + 1);
  });
});

test("a run opens its task's transcript, from the tree or by picking the schedule then the run", async () => {
  const { face, opened, schedulesTree: tree } = await setup();
  await withCommands(face, async () => {
    const [web1] = await tree.getChildren();
    const [triage] = await tree.getChildren(web1);
    const [denied] = await tree.getChildren(triage);
    await commands.executeCommand("roundhouse.openRunTranscript", denied);
    assert.deepEqual(opened, [42]);

    recorder.answers = ["Weekday triage", "Thu 26 Feb 07:00"];
    await commands.executeCommand("roundhouse.openRunTranscript");
    assert.deepEqual(recorder.shown[1].items, ["today 07:00", "Thu 26 Feb 07:00"], "only runs with a task");
    assert.deepEqual(opened, [42, 40]);
  });
});

test("Run starts the runbook attended and opens the new task's transcript; Delete asks, and a refusal shows the hub's sentence", async () => {
  const { face, bridge, opened } = await setup({
    ...standard,
    runbook_run: () => ({ task: { id: 61, project_id: 1, title: "triage · 2026-03-02 10:00 UTC", status: "in_progress" }, turn: { id: 90, task_id: 61, status: "running" } }),
    runbook_delete: (args) => { throw { code: -32803, message: `runbook ${String(args.runbook)} is run by schedule Weekday triage: delete or change it first`, data: { hub_code: "conflict" } }; },
  });
  await withCommands(face, async () => {
    const triage: RunbookNode = { kind: "runbook", project: web, runbook: RUNBOOK_LIST.runbooks[1] as never };
    await commands.executeCommand("roundhouse.runRunbook", triage);
    assert.deepEqual(calls(bridge, "runbook_run"), [{ runbook: "4", unattended: false }]);
    assert.deepEqual(opened, [61]);
    assert.equal(recorder.shown.at(-1)?.message, "Roundhouse: runbook triage started #61 triage · 2026-03-02 10:00 UTC");

    recorder.reset();
    recorder.answers = [undefined];
    await commands.executeCommand("roundhouse.deleteRunbook", triage);
    assert.equal(recorder.shown[0].modal, true);
    assert.equal(calls(bridge, "runbook_delete").length, 0, "dismissed: nothing deleted");

    recorder.answers = ["Delete"];
    await commands.executeCommand("roundhouse.deleteRunbook", triage);
    assert.deepEqual(calls(bridge, "runbook_delete"), [{ runbook: "4" }]);
    assert.equal(recorder.shown.at(-1)?.kind, "error");
    assert.equal(recorder.shown.at(-1)?.message, "Roundhouse: runbook 4 is run by schedule Weekday triage: delete or change it first");

    recorder.reset();
    recorder.answers = ["report"];
    await commands.executeCommand("roundhouse.runRunbook");
    assert.deepEqual(recorder.shown[0].items, ["report", "triage"]);
    assert.deepEqual(calls(bridge, "runbook_run").at(-1), { runbook: "5", unattended: false });
  });
});
