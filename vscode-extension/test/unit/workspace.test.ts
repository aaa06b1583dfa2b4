// The task workspace (Changes, Reviews, merge, sync, pull request, review, the native diff) and the dev
// services (tree, start/stop/restart, log channels) over the vscode stub and the fake bridge. The diff's
// base side is read with real git from a repository made here.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { commands, CommentThreadCollapsibleState, recorder, Range, ThemeIcon, TreeItem, Uri } from "../stub/vscode";
import { BoardModel, BoardNode } from "../../src/model/board";
import { DecisionBook } from "../../src/model/decisions";
import { DIFF_SCHEME, diffPlan, parseSide, sideContent, sideUri } from "../../src/model/diffSides";
import { formatLogLine, LogFollower, Timers } from "../../src/model/serviceLogs";
import { changesSummary, commentThreads, hubModules, mergeSummary, WorkspaceModel, WorkspaceNode } from "../../src/model/workspace";
import { RoundhouseApi } from "../../src/protocol/api";
import { Board, FileChange, LogLine, ServiceList, TaskDiff, TaskWorkspace } from "../../src/protocol/types";
import { BoardTreeProvider } from "../../src/views/boardTree";
import { DiffContentProvider } from "../../src/views/diffContent";
import { ServiceLogChannels } from "../../src/views/serviceLogChannels";
import { ReviewComments } from "../../src/views/reviewComments";
import { registerWorkspaceCommands, WorkspaceFace } from "../../src/workspaceCommands";
import { WORKSPACE_COMMAND_IDS } from "../../src/commands-ids";
import { FakeBridge } from "./fakeBridge";

const web = { id: 1, name: "web", path: "/src/web" };
const deploy = { id: 7, project_id: 1, title: "Deploy", status: "in_progress" as const, description: "ship it" };
const board: Board = { project: web, columns: [{ status: "in_progress", tasks: [deploy] }] };
const files: FileChange[] = [
  { path: "src/app.ts", old_path: "src/app.ts", kind: "MODIFIED", added: 3, removed: 1, uncommitted: false },
  { path: "notes.md", old_path: "notes.md", kind: "ADDED", added: 2, removed: 0, uncommitted: true },
  { path: "logo.png", old_path: "logo.png", kind: "ADDED", binary: true, uncommitted: false },
];
const taskDiff: TaskDiff = { task: 7, branch: "roundhouse/7-deploy", diff: { merge_base: "abc12345ff", head: "def67890aa", base_branch: "main", files, added: 5, removed: 1 } };
const taskWorkspace: TaskWorkspace = {
  task: 7, worktree: { branch: "roundhouse/7-deploy", path: "/wt/web/7", base_branch: "main", repository: "/src/web" }, status: { exists: true },
};
const services: ServiceList = {
  project: "web", project_id: 1, port: 21000, services: [
    { definition: { name: "http", command: "python3 -m http.server $PORT" }, state: { name: "http", status: "ready", pid: 4242 } },
    { definition: { name: "db", argv: ["postgres"] }, state: { name: "db", status: "stopped" } },
  ],
};
const ALL_OPERATIONS = ["task_diff", "task_workspace", "task_merge", "task_sync", "create_pr", "submit_review", "get_review", "service_list", "service_logs", "service_start"];

type Calls = Record<string, (args: Record<string, unknown>) => unknown>;

/** A fake bridge answering roundhouse/call by operation name (a handler that throws is a refusal). */
function bridgeWith(calls: Calls, operations = ALL_OPERATIONS): FakeBridge {
  const bridge = new FakeBridge();
  bridge.answers["roundhouse/operations"] = () => ({ operations: operations.map((name) => ({ name })) });
  bridge.answers["roundhouse/call"] = (params) => {
    const handler = calls[String(params.name)];
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

const standard: Calls = {
  task_diff: () => taskDiff,
  task_workspace: () => taskWorkspace,
  get_review: () => ({
    task: 7, state: "changes_requested", reviews: [
      { task: 7, reviewer: "user", verdict: "request_changes", summary: "rename it", comments: [{ path: "src/app.ts", line: 3, body: "call it start" }] },
      { task: 7, reviewer: "agent:9", verdict: "approve", summary: "fine" },
    ],
  }),
  service_list: () => services,
};

/** Intervals run only when a test says so. */
class ManualTimers implements Timers {
  private readonly runs = new Map<number, () => void>();
  private next = 0;
  setInterval(run: () => void): unknown {
    this.runs.set(++this.next, run);
    return this.next;
  }
  clearInterval(handle: unknown): void {
    this.runs.delete(handle as number);
  }
  tick(): void {
    [...this.runs.values()].forEach((run) => run());
  }
  get active(): number {
    return this.runs.size;
  }
}

async function setup(callsFor: Calls = standard, operations = ALL_OPERATIONS) {
  const bridge = bridgeWith(callsFor, operations);
  const api = new RoundhouseApi(bridge);
  const workspace = new WorkspaceModel(() => api);
  await workspace.detect();
  const model = new BoardModel(new DecisionBook(), workspace);
  model.setProjects([web]);
  model.setBoard(board);
  await workspace.loadServices(model.projects);
  const tree = new BoardTreeProvider(model);
  const timers = new ManualTimers();
  const logs = new ServiceLogChannels(() => api, timers);
  let changed = 0;
  const face: WorkspaceFace = { api, board: model, workspace, logs, changed: () => { changed++; } };
  return { bridge, api, workspace, model, tree, timers, logs, face, changedCount: () => changed };
}

function item(tree: BoardTreeProvider, node: BoardNode): TreeItem {
  return tree.getTreeItem(node) as unknown as TreeItem;
}

async function childrenOf(tree: BoardTreeProvider, node: BoardNode | undefined, kind: string): Promise<BoardNode[]> {
  return (await tree.getChildren(node)).filter((n) => n.kind === kind);
}

beforeEach(() => recorder.reset());

test("the hub's operations say which modules it runs; without the workspace module a task has no children", async () => {
  assert.deepEqual(hubModules(new Set(ALL_OPERATIONS)), { workspace: true, services: true });
  assert.deepEqual(hubModules(new Set(["task_create"])), { workspace: false, services: false });
  const { tree, model } = await setup(standard, ["task_create"]);
  const [project] = await tree.getChildren();
  const groups = await tree.getChildren(project);
  assert.deepEqual(groups.map((g) => g.kind), ["status"], "no Services node without the services module");
  const [task] = await tree.getChildren(groups[0]);
  assert.equal(item(tree, task).collapsibleState, 0, "a task stays a leaf");
  assert.deepEqual(model.children(task), []);
});

test("a task has Changes (files from task_diff, uncommitted marked, a click opens the diff) and Reviews (verdicts and comments)", async () => {
  const { tree, bridge, workspace } = await setup();
  const [project] = await tree.getChildren();
  const [inProgress] = await childrenOf(tree, project, "status");
  const [task] = await tree.getChildren(inProgress);
  assert.equal(item(tree, task).collapsibleState, 1, "a task expands to its workspace");
  const [changes, reviews] = await tree.getChildren(task);
  assert.equal(changes.kind, "changes");
  assert.equal(item(tree, changes).contextValue, "changes", "Merge, Sync, Create PR and Review are on it");

  const fileNodes = await tree.getChildren(changes);
  assert.deepEqual(calls(bridge, "task_diff"), [{ task: 7 }]);
  assert.deepEqual(calls(bridge, "task_workspace"), [{ task: 7 }], "read without ensure: nothing is cut by looking");
  const items = fileNodes.map((n) => item(tree, n));
  assert.deepEqual(items.map((i) => i.label), ["src/app.ts", "notes.md", "logo.png"]);
  assert.deepEqual(items.map((i) => i.description), ["M · +3 −1", "A · +2 −0 · uncommitted", "A · binary"]);
  assert.deepEqual(items.map((i) => i.contextValue), ["file", "file.uncommitted", "file"]);
  assert.equal((items[1].iconPath as ThemeIcon).id, "diff-added");
  assert.equal(items[0].command?.command, "roundhouse.openChange");
  assert.equal(item(tree, changes).description, "3 files · +5 −1 · 1 uncommitted", "the summary once read");
  await tree.getChildren(changes);
  assert.equal(calls(bridge, "task_diff").length, 1, "kept until an event says it changed");

  const [review, approval] = await tree.getChildren(reviews);
  assert.equal(item(tree, reviews).description, "changes requested");
  assert.equal(item(tree, review).label, "user: changes requested");
  assert.equal(item(tree, review).description, "rename it");
  assert.equal(item(tree, approval).label, "agent:9: approved");
  assert.equal(item(tree, approval).collapsibleState, 0, "no comments: a leaf");
  const [comment] = await tree.getChildren(review);
  assert.equal(item(tree, comment).label, "src/app.ts:3");
  assert.equal(item(tree, comment).description, "call it start");
  assert.equal(item(tree, comment).command?.command, "roundhouse.openChange");

  // The end of a turn (or a merge, a sync, a review) on the task makes them stale; another task's does not.
  assert.equal(workspace.apply({ seq: 1, type: "turn.ended", at: "", actor: "agent:8", task_id: 8, data: {} }), undefined);
  await tree.getChildren(changes);
  assert.equal(calls(bridge, "task_diff").length, 1);
  workspace.apply({ seq: 2, type: "review.submitted", at: "", actor: "user", task_id: 7, project_id: 1, data: {} });
  await tree.getChildren(changes);
  await tree.getChildren(reviews);
  assert.equal(calls(bridge, "task_diff").length, 2);
  assert.equal(calls(bridge, "get_review").length, 2);
});

test("a task without a workspace, or with nothing changed, says so under Changes", async () => {
  const refused = await setup({ ...standard, task_diff: () => { throw { code: -32803, message: "task 7 has no workspace yet: it is cut at its first turn" }; } });
  const [changes] = refused.model.children({ kind: "task", task: deploy });
  const [noteNode] = await refused.tree.getChildren(changes);
  assert.equal(item(refused.tree, noteNode).label, "task 7 has no workspace yet: it is cut at its first turn");
  assert.equal(item(refused.tree, noteNode).contextValue, "note");

  const empty = await setup({ ...standard, task_diff: () => ({ ...taskDiff, diff: { ...taskDiff.diff, files: [], added: 0, removed: 0 } }), get_review: () => ({ task: 7, state: "none", reviews: [] }) });
  const [changes2, reviews2] = empty.model.children({ kind: "task", task: deploy });
  assert.equal(item(empty.tree, (await empty.tree.getChildren(changes2))[0]).label, "No changes yet");
  assert.equal(item(empty.tree, (await empty.tree.getChildren(reviews2))[0]).label, "No reviews yet");
  assert.equal(changesSummary({ ...taskDiff, diff: { ...taskDiff.diff, files: [files[0]] } }), "1 file · +5 −1");
});

test("the project's services are in the board tree with their status, port and actions; a service event names the project", async () => {
  const { tree, workspace } = await setup();
  const [project] = await tree.getChildren();
  const children = await tree.getChildren(project);
  assert.deepEqual(children.map((c) => c.kind), ["services", "status"]);
  const servicesNode = children[0];
  assert.equal(item(tree, servicesNode).label, "Services");
  assert.equal(item(tree, servicesNode).description, "1 of 2 running · PORT 21000");
  const [http, db] = await tree.getChildren(servicesNode);
  assert.equal(item(tree, http).description, "ready · pid 4242");
  assert.equal(item(tree, http).contextValue, "service.ready", "stop and restart inline");
  assert.equal(item(tree, http).tooltip, "python3 -m http.server $PORT");
  assert.equal(item(tree, http).command?.command, "roundhouse.showServiceLogs");
  assert.equal(item(tree, db).contextValue, "service.stopped", "start inline");
  assert.equal(item(tree, db).tooltip, "postgres");
  assert.equal(workspace.apply({ seq: 3, type: "service.status", at: "", actor: "scheduler", project_id: 1, data: {} }), 1);

  const none = await setup({ ...standard, service_list: () => ({ ...services, services: [] }) });
  const [p2] = await none.tree.getChildren();
  assert.deepEqual((await none.tree.getChildren(p2)).map((c) => c.kind), ["status"], "no Services node for a project without any");
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8" });
}

test("a file's diff: the base side is the merge-base's version read with git, the task side the worktree's file", async (t) => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), "rh-diff-"));
  t.after(() => fs.rmSync(repo, { recursive: true, force: true }));
  git(repo, "init", "-q");
  fs.mkdirSync(path.join(repo, "src"));
  fs.writeFileSync(path.join(repo, "src", "app.ts"), "one\ntwo\n");
  fs.writeFileSync(path.join(repo, "old name.txt"), "kept\n");
  fs.writeFileSync(path.join(repo, "gone.txt"), "bye\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "base");
  const base = git(repo, "rev-parse", "HEAD").trim();
  fs.writeFileSync(path.join(repo, "src", "app.ts"), "one\nTWO\n");
  git(repo, "mv", "old name.txt", "new name.txt");
  git(repo, "rm", "-q", "gone.txt");
  git(repo, "commit", "-qam", "task");
  const head = git(repo, "rev-parse", "HEAD").trim();
  const diff: TaskDiff = { task: 7, branch: "roundhouse/7-deploy", diff: { merge_base: base, head, base_branch: "main", files: [] } };
  const ws: TaskWorkspace = { task: 7, worktree: { branch: "roundhouse/7-deploy", path: repo, base_branch: "main", repository: repo }, status: { exists: true } };
  const provider = new DiffContentProvider();
  const serve = (side: ReturnType<typeof diffPlan>["left"]): Promise<string> => {
    assert.equal(side.kind, "git");
    const uri = Uri.parse(side.kind === "git" ? sideUri(side.side, "base") : "");
    assert.equal(uri.scheme, DIFF_SCHEME);
    return provider.provideTextDocumentContent(uri as never);
  };

  const modified = diffPlan(diff, ws, { path: "src/app.ts", kind: "MODIFIED" });
  assert.equal(await serve(modified.left), "one\ntwo\n", "the merge-base's version");
  assert.deepEqual(modified.right, { kind: "file", fsPath: path.join(repo, "src", "app.ts") }, "the worktree's file, editable");
  assert.equal(modified.title, "#7 src/app.ts (main ↔ roundhouse/7-deploy)");
  const renamed = diffPlan(diff, ws, { path: "new name.txt", old_path: "old name.txt", kind: "RENAMED" });
  assert.equal(await serve(renamed.left), "kept\n", "a rename's base side is its old path");
  const deleted = diffPlan(diff, ws, { path: "gone.txt", kind: "DELETED" });
  assert.equal(await serve(deleted.left), "bye\n");
  assert.equal(await serve(deleted.right), "", "nothing on the task's side");
  const added = diffPlan(diff, ws, { path: "notes.md", kind: "ADDED" });
  assert.equal(await serve(added.left), "", "nothing on the base side");
  const gone = diffPlan(diff, { ...ws, status: { exists: false } }, { path: "src/app.ts", kind: "MODIFIED" });
  assert.equal(await serve(gone.right), "one\nTWO\n", "worktree folder gone: the branch's committed version");
  assert.throws(() => diffPlan(diff, { task: 7, note: "project web is not a git repository" }, files[0]), /task 7 has no worktree yet: project web is not a git repository/);
  await assert.rejects(sideContent({ task: 7, cwd: repo, commit: base, path: "nope.txt" }), /git show .* failed in .*nope\.txt/s);
  assert.throws(() => parseSide("/7/base/x", "garbage"), /not a roundhouse-diff document/);
  const odd = { task: 7, cwd: "/tmp/a&b=c %41+", commit: "", path: "dir/we ird#?.ts" };
  const back = Uri.parse(sideUri(odd, "task"));
  assert.deepEqual(parseSide(back.path, back.query), odd, "folders and names with URI characters survive the round trip");
  assert.ok(back.path.endsWith(".ts"), "the path ends with the file's name, for its language");
});

test("Open Change shows the native diff editor; a review comment opens it at its line; a binary file opens as is", async () => {
  const { face } = await setup();
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  registerWorkspaceCommands(context, face);
  try {
    assert.equal(context.subscriptions.length, WORKSPACE_COMMAND_IDS.length, "every workspace command is registered");
    await commands.executeCommand("roundhouse.openChange", { kind: "file", task: deploy, file: files[0] } satisfies WorkspaceNode);
    const [diff] = recorder.executed;
    assert.equal(diff.command, "vscode.diff");
    const [left, right, title, options] = diff.args as [Uri, Uri, string, { selection?: Range }];
    assert.equal(left.scheme, DIFF_SCHEME);
    assert.deepEqual(parseSide(left.path, left.query), { task: 7, cwd: "/wt/web/7", commit: "abc12345ff", path: "src/app.ts" });
    assert.equal(right.scheme, "file");
    assert.equal(right.fsPath, path.join("/wt/web/7", "src", "app.ts"));
    assert.equal(title, "#7 src/app.ts (main ↔ roundhouse/7-deploy)");
    assert.equal(options.selection, undefined);

    await commands.executeCommand("roundhouse.openChange", { kind: "comment", task: deploy, review: { task: 7, reviewer: "user", verdict: "request_changes" }, comment: { path: "src/app.ts", line: 3, body: "x" } });
    const at = recorder.executed[1].args[3] as { selection: Range };
    assert.deepEqual([at.selection.startLine, at.selection.endLine], [2, 2], "line 3 selected");

    await commands.executeCommand("roundhouse.openChange", { kind: "file", task: deploy, file: files[2] });
    assert.equal(recorder.executed[2].command, "vscode.open");
    assert.equal((recorder.executed[2].args[0] as Uri).fsPath, path.join("/wt/web/7", "logo.png"));

    await commands.executeCommand("roundhouse.openChange", { kind: "comment", task: deploy, review: { task: 7, reviewer: "user", verdict: "approve" }, comment: { path: "elsewhere.ts", line: 1, body: "x" } });
    assert.match(recorder.shown.at(-1)?.message ?? "", /task 7's diff no longer changes elsewhere\.ts/);
    assert.equal(recorder.shown.at(-1)?.kind, "error");
  } finally {
    context.subscriptions.forEach((s) => s.dispose());
  }
});

test("Merge asks first, reports the outcome, and on a conflict offers to ask the agent; Sync reports its outcome", async () => {
  let conflict = false;
  const { face, bridge, workspace } = await setup({
    ...standard,
    task_merge: (args) => conflict
      ? { task: 7, result: { outcome: "CONFLICT", conflicts: ["src/app.ts"] }, asked_agent: args.ask_agent === true, delivery: args.ask_agent ? "queued" : undefined }
      : { task: 7, branch: "roundhouse/7-deploy", result: { outcome: "FAST_FORWARD", message: "main moved to def6789" } },
    task_sync: () => ({ task: 7, result: { outcome: "UP_TO_DATE" } }),
  });
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  registerWorkspaceCommands(context, face);
  try {
    const taskNode = { kind: "task", task: deploy };
    await workspace.loadChanges(7);
    recorder.answers = [undefined];
    await commands.executeCommand("roundhouse.mergeTask", taskNode);
    assert.equal(recorder.shown[0].modal, true);
    assert.deepEqual(recorder.shown[0].items, ["Merge"]);
    assert.equal(calls(bridge, "task_merge").length, 0, "dismissed: nothing merged");

    recorder.reset();
    recorder.answers = ["Merge"];
    await commands.executeCommand("roundhouse.mergeTask", { kind: "changes", task: deploy });
    assert.deepEqual(calls(bridge, "task_merge"), [{ task: 7 }]);
    assert.equal(recorder.shown.at(-1)?.message, "Roundhouse: #7 merge fast-forwarded: main moved to def6789");
    assert.equal(workspace.changesOf(7), undefined, "the diff is read again");

    conflict = true;
    recorder.reset();
    recorder.answers = ["Merge", "Ask the agent"];
    await commands.executeCommand("roundhouse.mergeTask", taskNode);
    assert.equal(recorder.shown[1].kind, "warning");
    assert.equal(recorder.shown[1].message, "Roundhouse: #7 merge conflicts in src/app.ts; nothing was changed");
    assert.deepEqual(calls(bridge, "task_merge").at(-1), { task: 7, ask_agent: true });
    assert.match(recorder.shown[2].message, /the agent was asked to resolve it: queued/);

    recorder.reset();
    await commands.executeCommand("roundhouse.syncTask", taskNode);
    assert.deepEqual(calls(bridge, "task_sync"), [{ task: 7 }]);
    assert.equal(recorder.shown[0].message, "Roundhouse: #7 sync up to date");
    assert.equal(mergeSummary("sync", { task: 7, result: { outcome: "REFUSED", message: "main is checked out in /src/web, which has uncommitted changes" } }).text,
      "#7 sync refused: main is checked out in /src/web, which has uncommitted changes");
  } finally {
    context.subscriptions.forEach((s) => s.dispose());
  }
});

test("Create PR sends the title and offers to open it; a hub refusal is shown with its sentence; Review sends a verdict and a summary", async () => {
  let forge = true;
  const { face, bridge } = await setup({
    ...standard,
    create_pr: (args) => {
      if (!forge) {
        throw { code: -32803, message: "no forge is configured: set ROUNDHOUSE_FORGE to gh or local:<bare repository>" };
      }
      return { task: 7, forge: "gh", pull_request: { number: 12, url: "https://example.invalid/pr/12", title: args.title } };
    },
    submit_review: (args) => ({ task: 7, reviewer: "client:vscode", verdict: args.verdict, summary: args.summary }),
  });
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  registerWorkspaceCommands(context, face);
  try {
    const taskNode = { kind: "task", task: deploy };
    recorder.answers = ["Deploy to prod ", "Open"];
    await commands.executeCommand("roundhouse.createPullRequest", taskNode);
    assert.deepEqual(calls(bridge, "create_pr"), [{ task: 7, title: "Deploy to prod" }]);
    assert.equal(recorder.shown[1].message, "Roundhouse: opened pull request #12 for #7 (https://example.invalid/pr/12)");
    assert.equal(recorder.opened.length, 1, "Open opens the pull request's address");
    assert.deepEqual([recorder.opened[0].scheme, recorder.opened[0].path], ["https", "/pr/12"]);

    forge = false;
    recorder.reset();
    recorder.answers = ["Deploy"];
    await commands.executeCommand("roundhouse.createPullRequest", taskNode);
    assert.equal(recorder.shown.at(-1)?.kind, "error");
    assert.equal(recorder.shown.at(-1)?.message, "Roundhouse: no forge is configured: set ROUNDHOUSE_FORGE to gh or local:<bare repository>");

    recorder.reset();
    recorder.answers = ["Request changes", "call it start"];
    await commands.executeCommand("roundhouse.reviewTask", taskNode);
    assert.deepEqual(recorder.shown[0].items, ["Approve", "Request changes"]);
    assert.deepEqual(calls(bridge, "submit_review"), [{ task: 7, verdict: "request_changes", summary: "call it start" }]);
    assert.equal(recorder.shown.at(-1)?.message, "Roundhouse: #7 changes requested");

    recorder.reset();
    recorder.answers = ["Request changes", "  "];
    await commands.executeCommand("roundhouse.reviewTask", taskNode);
    assert.equal(calls(bridge, "submit_review").length, 1, "asking for changes needs a summary");

    recorder.reset();
    recorder.answers = ["#7 Deploy", "Approve", ""];
    await commands.executeCommand("roundhouse.reviewTask");
    assert.equal(recorder.shown[0].kind, "quickPick", "from the palette: which task");
    assert.deepEqual(calls(bridge, "submit_review").at(-1), { task: 7, verdict: "approve" }, "an empty summary is left out");
  } finally {
    context.subscriptions.forEach((s) => s.dispose());
  }
});

test("service start, stop and restart call the hub, read the list again and follow the logs of a service that runs", async () => {
  let http = services.services[0].state;
  const log: LogLine[] = [
    { offset: 0, stream: "stdout", text: "Serving HTTP on 0.0.0.0 port 21000" },
    { offset: 1, stream: "stderr", text: "GET / 200" },
  ];
  const { face, bridge, timers, logs } = await setup({
    ...standard,
    service_list: () => ({ ...services, services: [{ ...services.services[0], state: http }, services.services[1]] }),
    service_stop: () => (http = { name: "http", status: "stopped" }),
    service_start: () => (http = { name: "http", status: "starting", pid: 5000 }),
    service_restart: () => (http = { name: "http", status: "starting", pid: 5001 }),
    service_logs: (args) => {
      const from = Number(args.from);
      const lines = from < 0 ? log.slice(Math.max(0, log.length + from)) : log.filter((l) => l.offset >= from);
      return { service: "http", lines, missed: 0, next_offset: log.length };
    },
  });
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  registerWorkspaceCommands(context, face);
  try {
    const node = { kind: "service", project: web, service: services.services[0] };
    await commands.executeCommand("roundhouse.showServiceLogs", node);
    const [channel] = recorder.channels;
    assert.equal(channel.name, "Roundhouse: web/http");
    assert.equal(channel.shown, 1);
    assert.deepEqual(channel.lines, ["Serving HTTP on 0.0.0.0 port 21000", "[stderr] GET / 200"]);
    assert.deepEqual(calls(bridge, "service_logs")[0], { project: "1", service: "http", from: -200, limit: 2000 }, "the last lines first");
    assert.equal(timers.active, 1, "a running service is followed");

    log.push({ offset: 2, stream: "marker", text: "[15 lines skipped: the reader fell behind the log buffer]" }, { offset: 3, stream: "stdout", text: "GET /x 404" });
    timers.tick();
    await logs.follower(1, "http")?.read();
    assert.deepEqual(channel.lines.slice(2), ["[15 lines skipped: the reader fell behind the log buffer]", "GET /x 404"]);
    assert.equal(calls(bridge, "service_logs")[1].from, 2, "from the last offset: no line twice");

    await commands.executeCommand("roundhouse.stopService", node);
    assert.deepEqual(calls(bridge, "service_stop"), [{ project: "1", service: "http" }]);
    assert.equal(face.workspace.service(1, "http")?.state.status, "stopped", "the list was read again");
    assert.equal(timers.active, 0, "a stopped service is not polled");
    assert.match(recorder.shown.find((s) => s.kind === "statusBarMessage")?.message ?? "", /web\/http stopped/);

    await commands.executeCommand("roundhouse.startService", node);
    assert.deepEqual(calls(bridge, "service_start"), [{ project: "1", service: "http" }]);
    assert.equal(timers.active, 1, "followed again once it starts");
    await commands.executeCommand("roundhouse.restartService", node);
    assert.deepEqual(calls(bridge, "service_restart"), [{ project: "1", service: "http" }]);
    assert.equal(timers.active, 1, "one poller per service");
    assert.equal(recorder.channels.length, 1, "one channel per service");

    recorder.answers = ["web/db"];
    await commands.executeCommand("roundhouse.startService");
    assert.deepEqual(recorder.shown.find((s) => s.kind === "quickPick")?.items, ["web/http", "web/db"], "from the palette: which service");
    assert.deepEqual(calls(bridge, "service_start").at(-1), { project: "1", service: "db" });
  } finally {
    logs.dispose();
    context.subscriptions.forEach((s) => s.dispose());
  }
  assert.equal(timers.active, 0, "disposing stops every poller");
});

test("the log follower reads on past a full page, formats stderr, and stops with a sentence when the hub refuses", async () => {
  const lines: LogLine[] = Array.from({ length: 2500 }, (_, i) => ({ offset: i, stream: "stdout", text: `line ${i}` }));
  let refuse = false;
  const bridge = bridgeWith({
    service_logs: (args) => {
      if (refuse) {
        throw { code: -32803, message: "no service 'http' in project web" };
      }
      const from = Number(args.from);
      const page = lines.filter((l) => l.offset >= from).slice(0, Number(args.limit));
      return { service: "http", lines: page, next_offset: page.length > 0 ? page[page.length - 1].offset + 1 : from };
    },
  });
  const api = new RoundhouseApi(bridge);
  const got: string[] = [];
  const timers = new ManualTimers();
  let reads = 0;
  const follower = new LogFollower(() => api, "web", "http", { append: (t) => got.push(t) }, { timers, tail: 2500, onRead: () => reads++ });
  assert.equal(await follower.start(), 2500);
  assert.equal(got.length, 2500);
  assert.equal(got[2499], "line 2499");
  assert.equal(follower.nextOffset, 2500);
  assert.equal(calls(bridge, "service_logs").length, 2, "two pages");
  assert.equal(reads, 1);
  timers.tick();
  assert.equal(await follower.read(), 0, "nothing new");
  assert.equal(reads, 1, "onRead only when lines came");
  refuse = true;
  await follower.read();
  assert.equal(got.at(-1), "[roundhouse] could not read the log of http: no service 'http' in project web");
  assert.equal(follower.following, false);
  assert.equal(timers.active, 0);
  assert.equal(formatLogLine({ offset: 0, stream: "stderr", text: "boom" }), "[stderr] boom");
});

test("the reviews' comments show in the diff editor as read-only threads on the task's side, one per line, replaced when shown again", async () => {
  const { face, bridge } = await setup({
    ...standard,
    get_review: () => ({
      task: 7, state: "changes_requested", reviews: [
        { task: 7, reviewer: "user", verdict: "request_changes", summary: "rename it", comments: [{ path: "src/app.ts", line: 3, body: "call it start" }, { path: "README.md", line: 1, body: "other file" }] },
        { task: 7, reviewer: "agent:9", verdict: "approve", summary: "fine", comments: [{ path: "src/app.ts", line: 3, body: "agreed" }, { path: "src/app.ts", line: 1, body: "header?" }, { path: "src/app.ts", line: 0, body: "no line" }] },
      ],
    }),
  });
  const reviewComments = new ReviewComments();
  const context = { subscriptions: [] as { dispose(): unknown }[] };
  registerWorkspaceCommands(context, { ...face, reviewComments });
  try {
    await commands.executeCommand("roundhouse.openChange", { kind: "file", task: deploy, file: files[0] } satisfies WorkspaceNode);
    const threads = recorder.commentThreads;
    assert.deepEqual(threads.map((t) => [t.uri.fsPath, t.range.startLine, t.label]), [
      [path.join("/wt/web/7", "src", "app.ts"), 0, "Review · src/app.ts:1"],
      [path.join("/wt/web/7", "src", "app.ts"), 2, "Review · src/app.ts:3"],
    ], "one thread per line of this file, 0-based ranges, on the worktree file");
    assert.deepEqual(threads[1].comments.map((c) => [c.author.name, c.label, c.body]), [
      ["agent:9", "approved", "agreed"], ["user", "changes requested", "call it start"],
    ], "oldest review first, each comment with its reviewer and verdict");
    assert.ok(threads.every((t) => !t.canReply && t.collapsibleState === CommentThreadCollapsibleState.Expanded));

    await commands.executeCommand("roundhouse.openChange", { kind: "file", task: deploy, file: files[0] } satisfies WorkspaceNode);
    assert.ok(threads.slice(0, 2).every((t) => t.disposed), "shown again: the old threads go");
    assert.equal(recorder.commentThreads.filter((t) => !t.disposed).length, 2);
    assert.equal(calls(bridge, "get_review").length, 1, "the reviews are read once until an event makes them stale");
  } finally {
    context.subscriptions.forEach((s) => s.dispose());
    reviewComments.dispose();
  }
  assert.ok(recorder.commentThreads.every((t) => t.disposed), "disposing removes every thread");
});

test("comment threads: get_review's comments grouped by line for one file", () => {
  const threads = commentThreads({
    task: 7, state: "none", reviews: [
      { task: 7, reviewer: "b", verdict: "approve", comments: [{ path: "a.ts", line: 2, body: "later" }] },
      { task: 7, reviewer: "a", verdict: "request_changes", comments: [{ path: "a.ts", line: 2, body: "first" }, { path: "b.ts", line: 2, body: "elsewhere" }] },
    ],
  }, "a.ts");
  assert.deepEqual(threads, [{ path: "a.ts", line: 2, comments: [{ author: "a", verdict: "changes requested", body: "first" }, { author: "b", verdict: "approved", body: "later" }] }]);
});
