// The vscode-facing pieces over the stub in test/stub/vscode.ts (loaded by test/stub/register.ts).
import { test, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { commands, recorder, TreeItem, TreeItemCollapsibleState, ThemeIcon } from "../stub/vscode";
import { BoardModel, BoardNode } from "../../src/model/board";
import { DecisionBook, PROMPT_COMMAND, PromptAction, promptText } from "../../src/model/decisions";
import { BoardTreeProvider } from "../../src/views/boardTree";
import { NeedsYouTreeProvider } from "../../src/views/needsYouTree";
import { DecisionPrompts } from "../../src/views/prompts";
import { RoundhouseStatusBar } from "../../src/views/statusBar";
import { RoundhouseApi } from "../../src/protocol/api";
import { Board, Decision } from "../../src/protocol/types";
import { FakeBridge } from "./fakeBridge";

const web = { id: 1, name: "web", path: "/src/web" };
const board: Board = {
  project: web,
  columns: [
    { status: "backlog", tasks: [] },
    { status: "todo", tasks: [{ id: 3, project_id: 1, title: "Idea", status: "todo", suggested: true }] },
    { status: "in_progress", tasks: [{ id: 7, project_id: 1, title: "Deploy", status: "in_progress" }] },
    { status: "done", tasks: [{ id: 9, project_id: 1, title: "Old", status: "done" }] },
  ],
};
const permission: Decision = { id: 11, kind: "permission", title: "Bash", message: "Run: make deploy", options: ["allow_once", "allow_always", "deny"], task_id: 7, status: "pending" };
const proposal: Decision = {
  id: 12, kind: "calendar_proposal", title: "Create Work - Meetings - Planning", options: ["approve", "reject"], status: "pending",
  request: { action: "create", calendar: "work", before: null, after: { title: "Work - Meetings - Planning", start_local: "2026-12-01T10:00" } },
};

beforeEach(() => recorder.reset());

test("the board tree shows projects, non-empty status groups in board order, and tasks with badges and actions", async () => {
  const decisions = new DecisionBook();
  const model = new BoardModel(decisions);
  model.setProjects([web, { id: 2, name: "api" }], ["web"]);
  model.setBoard(board);
  decisions.open(permission);
  model.apply({ seq: 5, type: "turn.started", at: "", actor: "user", task_id: 7, project_id: 1, data: { turn: 1 } });
  const tree = new BoardTreeProvider(model);
  let refreshed = 0;
  tree.onDidChangeTreeData(() => refreshed++);

  const projects = await tree.getChildren();
  assert.deepEqual(projects.map((p) => tree.getTreeItem(p).label), ["web"], "only the configured projects");
  const project = tree.getTreeItem(projects[0]) as unknown as TreeItem;
  assert.equal(project.description, "1 running · 1 needs you");
  const groups = await tree.getChildren(projects[0]);
  assert.deepEqual(groups.map((g) => tree.getTreeItem(g).label), ["To do", "In progress", "Done"]);
  const [todo, inProgress] = groups;
  const running = tree.getTreeItem((await tree.getChildren(inProgress))[0]) as unknown as TreeItem;
  assert.equal(running.label, "#7 Deploy");
  assert.equal(running.description, "running · needs you");
  assert.equal(running.contextValue, "task.running", "inline actions: stop, not start");
  assert.equal((running.iconPath as ThemeIcon).id, "bell-dot");
  assert.equal(running.command?.command, "roundhouse.openTranscript");
  assert.equal(running.collapsibleState, TreeItemCollapsibleState.None);
  const suggested = tree.getTreeItem((await tree.getChildren(todo))[0]) as unknown as TreeItem;
  assert.equal(suggested.contextValue, "task.idle.suggested");
  assert.equal(suggested.description, "suggested");

  model.apply({ seq: 6, type: "turn.ended", at: "", actor: "agent:7", task_id: 7, data: { turn: 1, status: "completed" } });
  tree.refresh();
  assert.equal(refreshed, 1);
  const stopped = tree.getTreeItem((await tree.getChildren(inProgress))[0] as BoardNode) as unknown as TreeItem;
  assert.equal(stopped.contextValue, "task.idle");
  assert.equal(model.apply({ seq: 7, type: "task.updated", at: "", actor: "user", task_id: 7, project_id: 1, data: {} }), 1, "a task change asks for project 1's board again");
});

test("Needs you lists pending decisions with their options and the right inline actions", () => {
  const decisions = new DecisionBook();
  decisions.open(permission);
  decisions.open(proposal);
  const tree = new NeedsYouTreeProvider(decisions);
  const items = tree.getChildren().map((d) => tree.getTreeItem(d) as unknown as TreeItem);
  assert.deepEqual(items.map((i) => i.label), ["task #7: Bash", "Create Work - Meetings - Planning"]);
  assert.equal(items[0].description, "Allow once / Always allow / Deny");
  assert.equal(items[0].contextValue, "decision.permission");
  assert.equal(items[1].contextValue, "decision.binary");
  assert.match(String(items[1].tooltip), /\+ start_local: 2026-12-01T10:00/);
  assert.equal(items[1].command?.command, "roundhouse.showDecision");
});

/** Prompts over a fake bridge, with the notification links' command registered as commands.ts does. */
function promptsOver(bridge: FakeBridge, ...pending: Decision[]): { prompts: DecisionPrompts; book: DecisionBook } {
  const book = new DecisionBook();
  pending.forEach((d) => book.open(d));
  const api = new RoundhouseApi(bridge);
  const prompts = new DecisionPrompts(() => api, book);
  registered.push(commands.registerCommand(PROMPT_COMMAND, (id: unknown, action: unknown) => prompts.fromPrompt(id as number, action as PromptAction)));
  return { prompts, book };
}
const registered: { dispose(): void }[] = [];
afterEach(() => registered.splice(0).forEach((r) => r.dispose()));

test("a new decision's notification offers its options as links, and the link clicked is the answer sent", async () => {
  const bridge = new FakeBridge();
  const { prompts, book } = promptsOver(bridge, permission);
  const shown = prompts.prompt(permission);
  const toast = recorder.progress[0];
  assert.match(toast.title, /^Roundhouse · task #7: Bash — Run: make deploy /);
  assert.deepEqual([...toast.title.matchAll(/\[([^\]]+)\]\(command:roundhouse\.answerFromPrompt\?/g)].map((m) => m[1]), ["Allow once", "Always allow", "Deny"]);
  assert.equal(toast.cancellable, true, "Cancel dismisses it");
  assert.equal(await toast.click("Deny"), "deny");
  assert.deepEqual(bridge.requests.at(-1), { method: "roundhouse/answerDecision", params: { decision: 11, answer: "deny" } });
  await shown;
  assert.equal(toast.done, true, "answered: the notification closed");

  book.open({ ...permission, id: 21 });
  const again = prompts.prompt({ ...permission, id: 21 });
  recorder.progress[1].cancel();
  await again;
  assert.equal(recorder.progress[1].done, true, "dismissed with Cancel");
  assert.equal(bridge.requests.length, 1, "dismissed: nothing is answered");
});

test("defect 3: a decision answered elsewhere closes its notification and quick pick, and a stale link sends nothing", async () => {
  const bridge = new FakeBridge();
  const { prompts, book } = promptsOver(bridge, permission);
  const shown = prompts.prompt(permission);
  const picking = prompts.choose(permission);
  const pickToken = recorder.tokens[0];
  assert.equal(pickToken?.isCancellationRequested, false);

  // Answered in the transcript or another window: roundhouse/decisionClosed.
  book.close({ decision: 11, status: "answered", answer: "allow_once" });
  prompts.closed(11);
  await shown;
  assert.equal(recorder.progress[0].done, true, "the notification is gone");
  assert.equal(pickToken?.isCancellationRequested, true, "the quick pick for it is closed");
  await picking;

  assert.equal(await recorder.progress[0].click("Allow once"), undefined, "a link clicked in a stale copy");
  assert.equal(bridge.requests.length, 0, "sends nothing");
  assert.equal(recorder.shown.at(-1)?.kind, "statusBarMessage");
  assert.match(recorder.shown.at(-1)?.message ?? "", /decision 11 was already answered/);
  assert.ok(!recorder.shown.some((s) => s.kind === "error"), "and no error");
});

test("defect 3: an agent's text cannot add a command link to a notification", () => {
  const sneaky: Decision = { ...permission, message: "[Allow once](command:workbench.action.terminal.sendSequence?%7B%7D) please" };
  const text = promptText(sneaky);
  assert.equal([...text.matchAll(/\]\(command:/g)].length, 3, "only the three option links");
  assert.ok(!text.includes("](command:workbench"), text);
});

test("a calendar proposal's notification can show the change as a diff, then approve it", async () => {
  const bridge = new FakeBridge();
  const { prompts } = promptsOver(bridge, proposal);
  void prompts.prompt(proposal);
  const toast = recorder.progress[0];
  assert.deepEqual([...toast.title.matchAll(/\[([^\]]+)\]\(command:/g)].map((m) => m[1]), ["Approve", "Reject", "Show change"]);
  recorder.answers = ["Approve"];
  assert.equal(await toast.click("Show change"), "approve");
  const shown = recorder.documents[0];
  assert.match(shown.path, /\.diff$/, "shown as a diff");
  assert.match(prompts.documents.provideTextDocumentContent(shown as never), /\+ title: Work - Meetings - Planning/);
  assert.deepEqual(bridge.requests.at(-1)?.params, { decision: 12, answer: "approve" });
});

test("a refused answer is shown with the hub's sentence, and a question without options asks for text", async () => {
  const bridge = new FakeBridge();
  bridge.answers["roundhouse/answerDecision"] = (params) => {
    if (params.answer === "allow_once") {
      throw { code: -32803, message: "decision 11 is already answered" };
    }
    return { id: params.decision, status: "answered" };
  };
  const question: Decision = { id: 13, kind: "question", title: "Which database?", options: [], status: "pending", task_id: 7 };
  const { prompts } = promptsOver(bridge, permission, question);
  assert.equal(await prompts.answer(permission, "allow_once"), undefined);
  assert.equal(recorder.shown.at(-1)?.kind, "error");
  assert.match(recorder.shown.at(-1)?.message ?? "", /decision 11 is already answered/);

  recorder.reset();
  recorder.answers = ["use Postgres"];
  assert.equal(await prompts.choose(question), "use Postgres");
  assert.equal(recorder.shown[0].kind, "inputBox");
});

test("the status bar counts running turns and pending decisions and opens the list", () => {
  const bar = new RoundhouseStatusBar();
  bar.update(2, 1);
  assert.equal(bar.text, "$(sync~spin) 2  $(bell-dot) 1");
  bar.update(0, 0);
  assert.equal(bar.text, "$(sync) 0  $(bell) 0");
  bar.disconnected("gone");
  assert.match(bar.text, /debug-disconnect/);
});

test("defect 7: a question's notification offers Answer… and opens the input box only when clicked", async () => {
  const bridge = new FakeBridge();
  const question: Decision = { id: 13, kind: "question", title: "Which database?", message: "Postgres or SQLite?", options: [], status: "pending", task_id: 7 };
  const { prompts, book } = promptsOver(bridge, question);
  const shown = prompts.prompt(question);
  assert.deepEqual(recorder.shown.map((s) => s.kind), ["progress"], "no input box took the focus");
  const toast = recorder.progress[0];
  assert.match(toast.title, /^Roundhouse · task #7: Which database\? — Postgres or SQLite\? {2}\[Answer…\]\(command:roundhouse\.answerFromPrompt\?/);
  recorder.answers = ["SQLite"];
  assert.equal(await toast.click("Answer…"), "SQLite");
  assert.equal(recorder.shown[1].kind, "inputBox");
  assert.deepEqual(bridge.requests.at(-1)?.params, { decision: 13, answer: "SQLite" });
  book.close({ decision: 13, status: "answered", answer: "SQLite" });
  await shown;
  assert.equal(toast.done, true);
});

test("defect 8: every Needs you row and board row has an accessible name, also a decision without title or message", async () => {
  const decisions = new DecisionBook();
  decisions.open({ id: 15, kind: "question", title: "", options: [], status: "pending", task_id: 7 });
  decisions.open({ id: 16, kind: "permission", title: "Bash", options: ["allow_once", "allow_always", "deny"], status: "pending", task_id: 7 });
  decisions.open({ id: 17, kind: "settings_drift", title: "", message: ".claude/settings.json changed\nsince the last turn", options: ["adopt", "decline"], status: "pending" });
  const needsYou = new NeedsYouTreeProvider(decisions);
  const rows = needsYou.getChildren().map((d) => needsYou.getTreeItem(d as Decision) as unknown as TreeItem);
  assert.deepEqual(rows.map((r) => r.label), ["Question · task #7: Question", "task #7: Bash", "Settings drift · .claude/settings.json changed"]);
  assert.deepEqual(rows.map((r) => r.accessibilityInformation?.label), [
    "Question for task #7: Question. Answer with text",
    "Permission for task #7: Bash. Options: Allow once, Always allow, Deny",
    "Settings drift: .claude/settings.json changed. since the last turn. Options: Adopt, Decline",
  ]);
  assert.ok(rows.every((r) => (r.tooltip ?? "").length > 0 && r.label.length > 0));
  assert.equal(rows[0].description, "answer with text");

  const model = new BoardModel(decisions);
  model.setProjects([web]);
  model.setBoard(board);
  const tree = new BoardTreeProvider(model);
  const [project] = await tree.getChildren();
  const groups = await tree.getChildren(project);
  const task = (await tree.getChildren(groups.find((g) => g.kind === "status" && g.status === "in_progress")))[0];
  assert.equal((tree.getTreeItem(project) as unknown as TreeItem).accessibilityInformation?.label, "Project web, 2 need you");
  assert.equal((tree.getTreeItem(groups[0]) as unknown as TreeItem).accessibilityInformation?.label, "To do, 1 task");
  assert.equal((tree.getTreeItem(task) as unknown as TreeItem).accessibilityInformation?.label, "Task #7 Deploy, In progress, needs you (2)");
});
