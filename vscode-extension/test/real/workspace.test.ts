// The extension's workspace and services models against the REAL `roundhouse lsp` and a real hub (run by
// the app module's VscodeProtocolTest with RH_LSP_CMD and ROUNDHOUSE_HOME): a git project made here, a
// task's worktree cut with task_workspace, a commit and an uncommitted file in it; the Changes node's files,
// the diff's base side read with git at the merge-base, a review, a merge into main; a service defined,
// started, its log followed through service_logs, stopped. Everything through roundhouse/call.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as rpc from "vscode-languageserver-protocol/node";
import { RoundhouseApi } from "../../src/protocol/api";
import { CLIENT_CAPABILITY } from "../../src/protocol/methods";
import { Disposable, RpcConnection } from "../../src/protocol/connection";
import { BoardModel } from "../../src/model/board";
import { DecisionBook } from "../../src/model/decisions";
import { diffPlan, sideContent } from "../../src/model/diffSides";
import { LogFollower } from "../../src/model/serviceLogs";
import { mergeSummary, WorkspaceModel } from "../../src/model/workspace";

const command = JSON.parse(process.env.RH_LSP_CMD ?? "null") as string[] | null;
const skip = command === null ? "RH_LSP_CMD is not set (VscodeProtocolTest sets it)" : false;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8" });
}

test("a task's changes, diff, review and merge, and a service's streamed log, through roundhouse/call", { skip }, async (t) => {
  const [program, ...args] = command!;
  const child = spawn(program, args, { stdio: ["pipe", "pipe", "inherit"] });
  t.after(() => {
    if (child.exitCode === null) {
      child.kill("SIGKILL");
    }
  });
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout!), new rpc.StreamMessageWriter(child.stdin!));
  connection.listen();
  const rpcConnection: RpcConnection = {
    sendRequest: <R>(method: string, params: object) => connection.sendRequest<R>(method, params),
    onNotification: (method: string, handler: (params: unknown) => void): Disposable => connection.onNotification(method, handler),
  };
  await connection.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: { experimental: CLIENT_CAPABILITY } });
  await connection.sendNotification(rpc.InitializedNotification.type, {});
  const api = new RoundhouseApi(rpcConnection);

  const repo = fs.mkdtempSync(path.join(os.tmpdir(), "rh-vscode-git-"));
  t.after(() => fs.rmSync(repo, { recursive: true, force: true }));
  git(repo, "init", "-q");
  fs.writeFileSync(path.join(repo, "app.txt"), "one\ntwo\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "base");
  const project = `gitweb-${process.pid}`;
  await api.call("project_create", { name: project, path: repo, default_agent: "script" });

  const workspace = new WorkspaceModel(() => api);
  assert.deepEqual(await workspace.detect(), { workspace: true, services: true }, "roundhouse serve runs both modules");
  const board = new BoardModel(new DecisionBook(), workspace);
  const task = await api.createTask({ project, title: "change app" });
  board.setProjects((await api.projects()).projects, [project]);
  board.setBoard(await api.board(project));
  assert.deepEqual(board.children({ kind: "task", task }).map((n) => n.kind), ["changes", "reviews"]);

  // The worktree is cut explicitly (no turn needed); the task commits one change and leaves another uncommitted.
  const cut = await api.taskWorkspace(task.id, true);
  const worktree = cut.worktree!.path;
  fs.writeFileSync(path.join(worktree, "app.txt"), "one\nTWO\n");
  git(worktree, "commit", "-qam", "task change");
  fs.writeFileSync(path.join(worktree, "notes.md"), "draft\n");

  const [changesNode] = workspace.taskChildren(task);
  const files = await workspace.children(changesNode);
  const views = files.map((n) => workspace.view(n));
  assert.deepEqual(views.map((v) => `${v.label} ${v.description}`).sort(), ["app.txt M · +1 −1", "notes.md A · +1 −0 · uncommitted"]);
  const state = workspace.changesOf(task.id);
  assert.ok(state?.state === "loaded");
  const app = state.diff.diff.files.find((f) => f.path === "app.txt")!;
  const plan = diffPlan(state.diff, state.workspace, app);
  assert.ok(plan.left.kind === "git");
  assert.equal(await sideContent(plan.left.side), "one\ntwo\n", "the base side: app.txt at the merge-base");
  assert.ok(plan.right.kind === "file");
  assert.equal(fs.readFileSync(plan.right.fsPath, "utf8"), "one\nTWO\n", "the task side: the worktree's file");

  // A review with a comment, shown under Reviews.
  await api.submitReview(task.id, "request_changes", "say why", [{ path: "app.txt", line: 2, body: "why upper case?" }]);
  const [, reviewsNode] = workspace.taskChildren(task);
  const [review] = await workspace.children(reviewsNode);
  assert.equal(workspace.view(review).label.endsWith(": changes requested"), true, workspace.view(review).label);
  const [comment] = await workspace.children(review);
  assert.equal(workspace.view(comment).label, "app.txt:2");

  // Merge: refused while a file is uncommitted (said by the hub), then a fast-forward once it is committed.
  const refused = await api.mergeTask(task.id).then((view) => mergeSummary("merge", view).text, (error: { message: string }) => error.message);
  assert.match(refused, /uncommitted|notes\.md/);
  git(worktree, "add", "-A");
  git(worktree, "commit", "-qm", "notes");
  const merged = mergeSummary("merge", await api.mergeTask(task.id));
  assert.match(merged.text, /fast-forwarded/);
  assert.equal(git(repo, "show", "main:app.txt"), "one\nTWO\n", "main has the task's change");
  assert.match(mergeSummary("sync", await api.syncTask(task.id)).text, /up to date/);
  await assert.rejects(api.createPullRequest(task.id), (e: { message: string }) => /forge|ROUNDHOUSE_FORGE/i.test(e.message));

  // A service: defined by the client, started, its log streamed by the follower, stopped.
  await api.call("service_define", { project, name: "echo", argv: ["sh", "-c", "echo hello-from-service; exec sleep 60"] });
  const projectId = board.projects[0].id;
  await workspace.loadServices(board.projects);
  assert.deepEqual(board.children({ kind: "project", project: board.projects[0] }).map((n) => n.kind).slice(0, 1), ["services"]);
  const started = await api.serviceAction("start", projectId, "echo");
  assert.ok(["starting", "ready"].includes(started.status), started.status);
  const lines: string[] = [];
  let seen: () => void = () => undefined;
  const heard = new Promise<void>((resolve) => { seen = resolve; });
  const follower = new LogFollower(() => api, projectId, "echo", { append: (line) => lines.push(line) }, {
    onRead: () => lines.includes("hello-from-service") && seen(),
  });
  t.after(() => follower.stop());
  await follower.start();
  await Promise.race([heard, new Promise((_, reject) => setTimeout(() => reject(new Error(`no log line within 30 s: ${JSON.stringify(lines)}`)), 30000).unref())]);
  assert.equal(lines.filter((l) => l === "hello-from-service").length, 1, "each line once");
  const stopped = await api.call<{ status: string }>("service_stop", { project: String(projectId), service: "echo", wait_seconds: 30 });
  assert.equal(stopped.status, "stopped");
  await follower.statusChanged("stopped");
  assert.equal(follower.following, false);
  const list = await workspace.loadProjectServices(projectId);
  assert.equal(list?.services[0].state.status, "stopped");

  await connection.sendRequest(rpc.ShutdownRequest.type);
  await connection.sendNotification(rpc.ExitNotification.type);
  connection.dispose();
});
