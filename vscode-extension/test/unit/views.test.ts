// The vscode-facing pieces over the stub in test/stub/vscode.ts (loaded by test/stub/register.ts).
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { recorder, TreeItem, TreeItemCollapsibleState, ThemeIcon } from "../stub/vscode";
import { BoardModel, BoardNode } from "../../src/model/board";
import { DecisionBook } from "../../src/model/decisions";
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

test("a new decision's prompt offers its options and the button chosen is the answer sent", async () => {
  const bridge = new FakeBridge();
  const prompts = new DecisionPrompts(new RoundhouseApi(bridge));
  recorder.answers = ["Deny"];
  assert.equal(await prompts.prompt(permission), "deny");
  assert.equal(recorder.shown[0].kind, "warning");
  assert.match(recorder.shown[0].message, /task #7: Bash/);
  assert.deepEqual(recorder.shown[0].items, ["Allow once", "Always allow", "Deny"]);
  assert.deepEqual(bridge.requests.at(-1), { method: "roundhouse/answerDecision", params: { decision: 11, answer: "deny" } });

  recorder.answers = [undefined];
  assert.equal(await prompts.prompt(permission), undefined, "dismissed: nothing is answered");
  assert.equal(bridge.requests.length, 1);
});

test("a calendar proposal's prompt can show the change as a diff, then approve it", async () => {
  const bridge = new FakeBridge();
  const prompts = new DecisionPrompts(new RoundhouseApi(bridge));
  recorder.answers = ["Show change", "Approve"];
  assert.equal(await prompts.prompt(proposal), "approve");
  assert.deepEqual(recorder.shown[0].items, ["Approve", "Reject", "Show change"]);
  assert.equal(recorder.documents[0].language, "diff");
  assert.match(recorder.documents[0].content, /\+ title: Work - Meetings - Planning/);
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
  const prompts = new DecisionPrompts(new RoundhouseApi(bridge));
  recorder.answers = ["Allow once"];
  assert.equal(await prompts.prompt(permission), undefined);
  assert.equal(recorder.shown.at(-1)?.kind, "error");
  assert.match(recorder.shown.at(-1)?.message ?? "", /decision 11 is already answered/);

  recorder.reset();
  recorder.answers = ["use Postgres"];
  const question: Decision = { id: 13, kind: "question", title: "Which database?", options: [], status: "pending", task_id: 7 };
  assert.equal(await prompts.prompt(question), "use Postgres");
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
