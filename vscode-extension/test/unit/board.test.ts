// Defect 9 of issue 21: the Needs you list when empty, the board's groups, New Task's column and its reveal,
// and a running task in its column. Commands run through the stub's commands.executeCommand over a small
// stand-in for the extension's state (commands.ts only reads these members of Roundhouse).
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import type * as vscode from "vscode";
import { commands, recorder, ThemeIcon, TreeItem, TreeItemCollapsibleState } from "../stub/vscode";
import { BoardModel, BoardNode } from "../../src/model/board";
import { DecisionBook } from "../../src/model/decisions";
import { BoardTreeProvider } from "../../src/views/boardTree";
import { NeedsYouTreeProvider } from "../../src/views/needsYouTree";
import { registerCommands } from "../../src/commands";
import { Roundhouse } from "../../src/roundhouse";
import { RoundhouseApi } from "../../src/protocol/api";
import { Board, Decision, Task } from "../../src/protocol/types";
import { FakeBridge } from "./fakeBridge";

const web = { id: 1, name: "web", path: "/src/web" };
const todo: Task = { id: 3, project_id: 1, title: "Idea", status: "todo" };

function boardOf(tasks: readonly Task[]): Board {
  return { project: web, columns: (["backlog", "todo", "in_progress", "review", "done", "cancelled"] as const).map((status) => ({ status, tasks: tasks.filter((t) => t.status === status) })) };
}

function item(tree: BoardTreeProvider, node: BoardNode): TreeItem {
  return tree.getTreeItem(node) as unknown as TreeItem;
}

beforeEach(() => recorder.reset());

test("defect 9: an empty Needs you says Nothing needs you, once the decisions were read", () => {
  const book = new DecisionBook();
  const tree = new NeedsYouTreeProvider(book);
  assert.deepEqual(tree.getChildren(), [], "not read yet: empty, not a claim that nothing waits");
  book.reset([]);
  const rows = tree.getChildren().map((n) => tree.getTreeItem(n) as unknown as TreeItem);
  assert.deepEqual(rows.map((r) => [r.label, r.accessibilityInformation?.label, r.contextValue]), [["Nothing needs you", "Nothing needs you", undefined]]);
  const decision: Decision = { id: 11, kind: "permission", title: "Bash", options: ["allow_once", "deny"], status: "pending", task_id: 7 };
  book.open(decision);
  assert.deepEqual(tree.getChildren(), [decision]);
  book.close({ decision: 11, status: "answered" });
  assert.equal((tree.getTreeItem(tree.getChildren()[0]) as unknown as TreeItem).label, "Nothing needs you");
});

test("defect 9: every open column starts expanded (a new Backlog too), Done folded; a running task stays in its column, spinning", async () => {
  const model = new BoardModel(new DecisionBook());
  model.setProjects([web]);
  model.setBoard(boardOf([{ id: 1, project_id: 1, title: "New", status: "backlog" }, todo, { id: 9, project_id: 1, title: "Old", status: "done" }]));
  model.setTurnStatus(3, "running");
  const tree = new BoardTreeProvider(model);
  const [project] = await tree.getChildren();
  const groups = await tree.getChildren(project);
  assert.deepEqual(groups.map((g) => [item(tree, g).label, item(tree, g).collapsibleState]), [
    ["Backlog", TreeItemCollapsibleState.Expanded], ["To do", TreeItemCollapsibleState.Expanded], ["Done", TreeItemCollapsibleState.Collapsed],
  ]);
  assert.equal(item(tree, groups[1]).description, "1 · 1 running", "a folded column still says a turn runs in it");
  const running = item(tree, (await tree.getChildren(groups[1]))[0]);
  assert.equal(running.description, "running");
  assert.equal((running.iconPath as ThemeIcon).id, "sync~spin");
  assert.match(String(running.tooltip), /status: To do\na turn is running \(the task stays in its column until it is moved\)/);
  assert.equal(running.accessibilityInformation?.label, "Task #3 Idea, To do, running");
});

/** The members of Roundhouse that commands.ts reads, over a fake bridge whose hub files tasks. */
function extensionState(bridge: FakeBridge) {
  const decisions = new DecisionBook();
  const board = new BoardModel(decisions);
  const boardTree = new BoardTreeProvider(board);
  const revealed: { id: string | undefined; parents: (string | undefined)[]; options: unknown }[] = [];
  boardTree.view = {
    reveal: async (node: BoardNode, options: unknown) => {
      const parents: (string | undefined)[] = [];
      for (let parent = boardTree.getParent(node); parent; parent = boardTree.getParent(parent)) {
        parents.push(item(boardTree, parent).id);
      }
      revealed.push({ id: item(boardTree, node).id, parents, options });
    },
  } as unknown as vscode.TreeView<BoardNode>;
  const tasks: Task[] = [todo];
  bridge.answers["roundhouse/call"] = (params) => {
    const args = params.arguments as Record<string, unknown>;
    if (params.name !== "task_create") {
      throw new Error(`unexpected ${String(params.name)}`);
    }
    const task: Task = { id: 40 + tasks.length, project_id: 1, title: String(args.title), status: (args.status as Task["status"]) ?? "backlog" };
    tasks.push(task);
    return task;
  };
  board.setProjects([web]);
  board.setBoard(boardOf(tasks));
  const api = new RoundhouseApi(bridge);
  const rh = { api, board, decisions, boardTree, refresh: async () => board.setBoard(boardOf(tasks)) };
  return { rh: rh as unknown as Roundhouse, revealed };
}

test("defect 9: New Task asks for the column (Backlog first, the default), files it there and reveals it", async () => {
  const bridge = new FakeBridge();
  const { rh, revealed } = extensionState(bridge);
  const context = { subscriptions: [] as { dispose(): unknown }[] } as unknown as vscode.ExtensionContext;
  registerCommands(context, rh);
  try {
    recorder.answers = ["Write the docs", "", "To do"];
    await commands.executeCommand("roundhouse.newTask", { kind: "project", project: web });
    const column = recorder.shown.find((s) => s.kind === "quickPick");
    assert.deepEqual(column?.items, ["Backlog", "To do", "In progress", "Review", "Done"], "Backlog first: Enter picks it");
    assert.deepEqual(bridge.requests.at(-1)?.params, { name: "task_create", arguments: { project: "web", title: "Write the docs", status: "todo" } });
    assert.deepEqual(revealed, [{ id: "task:41", parents: ["status:1:todo", "project:1"], options: { select: true, focus: false, expand: false } }]);

    recorder.reset();
    recorder.answers = ["Fix the build", "it is red"];
    await commands.executeCommand("roundhouse.newTask", { kind: "status", project: web, status: "backlog", tasks: [] });
    assert.ok(!recorder.shown.some((s) => s.kind === "quickPick"), "from a column's row, that column: no question");
    assert.deepEqual(bridge.requests.at(-1)?.params, { name: "task_create", arguments: { project: "web", title: "Fix the build", description: "it is red", status: "backlog" } });
    assert.equal(revealed.at(-1)?.id, "task:42");
    assert.deepEqual(revealed.at(-1)?.parents, ["status:1:backlog", "project:1"]);

    recorder.reset();
    recorder.answers = ["Never mind", "", undefined];
    await commands.executeCommand("roundhouse.newTask", { kind: "project", project: web });
    assert.equal(bridge.requests.filter((r) => r.method === "roundhouse/call").length, 2, "no column picked: nothing filed");
  } finally {
    context.subscriptions.forEach((s) => s.dispose());
  }
});
