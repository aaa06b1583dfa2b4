// The two sides of a task's file in VS Code's diff editor. The base side is the file at the merge-base
// (`git show <merge-base>:<old path>` run in the task's worktree), served under the `roundhouse-diff:`
// scheme; the task side is the file in the task's worktree (editable), or, when the worktree folder is
// gone or the file was deleted, the branch's version / nothing, served the same way. No vscode here.

import { execFile } from "child_process";
import * as path from "path";
import { FileChange, TaskDiff, TaskWorkspace } from "../protocol/types";

export const DIFF_SCHEME = "roundhouse-diff";

/** A side served by the content provider: the file `path` at `commit`, read in `cwd`; no commit: empty. */
export interface GitSide {
  readonly task: number;
  readonly cwd: string;
  readonly commit: string;
  readonly path: string;
}

/** Either a file on disk or a side the provider serves. */
export type DiffSide = { readonly kind: "file"; readonly fsPath: string } | { readonly kind: "git"; readonly side: GitSide };

export interface DiffPlan {
  readonly left: DiffSide;
  readonly right: DiffSide;
  readonly title: string;
}

/**
 * Where each side of a changed file comes from. Fails with a sentence when the task has no worktree on
 * this machine's view (the hub names its folder; the extension reads it with git).
 */
export function diffPlan(diff: TaskDiff, workspace: TaskWorkspace, file: FileChange): DiffPlan {
  const worktree = workspace.worktree;
  if (!worktree) {
    throw new Error(`task ${diff.task} has no worktree yet${workspace.note ? `: ${workspace.note}` : ""}`);
  }
  const mergeBase = diff.diff.merge_base ?? "";
  const oldPath = file.old_path ?? file.path;
  // git runs in the worktree; when its folder went missing (ensure repairs it at the next turn), in the
  // main checkout, and the task side is then the branch's committed version.
  const gone = workspace.status?.exists === false;
  const cwd = gone ? worktree.repository ?? worktree.path : worktree.path;
  const left: DiffSide = { kind: "git", side: { task: diff.task, cwd, commit: file.kind === "ADDED" ? "" : mergeBase, path: oldPath } };
  let right: DiffSide;
  if (file.kind === "DELETED") {
    right = { kind: "git", side: { task: diff.task, cwd, commit: "", path: file.path } };
  } else if (gone) {
    right = { kind: "git", side: { task: diff.task, cwd, commit: diff.diff.head ?? worktree.branch, path: file.path } };
  } else {
    right = { kind: "file", fsPath: path.join(worktree.path, ...file.path.split("/")) };
  }
  const base = diff.diff.base_branch ?? worktree.base_branch;
  const branch = diff.branch ?? worktree.branch;
  return { left, right, title: `#${diff.task} ${file.path} (${base} ↔ ${branch})` };
}

/** The `roundhouse-diff:` URI of a side, as a string (`vscode.Uri.parse` reads it back). */
export function sideUri(side: GitSide, which: "base" | "task"): string {
  // base64url: VS Code hands the query back decoded, so it must hold no character that decoding changes.
  const query = Buffer.from(JSON.stringify({ cwd: side.cwd, commit: side.commit, path: side.path }), "utf8").toString("base64url");
  // The path ends with the file's name, so the editor picks its language.
  const encodedPath = side.path.split("/").map(encodeURIComponent).join("/");
  return `${DIFF_SCHEME}:/${side.task}/${which}/${encodedPath}?${query}`;
}

/** Reads a side back from its URI's path and query. */
export function parseSide(uriPath: string, query: string): GitSide {
  const task = Number(uriPath.split("/")[1]);
  let fields: { cwd?: unknown; commit?: unknown; path?: unknown } = {};
  try {
    fields = JSON.parse(Buffer.from(query, "base64url").toString("utf8")) as typeof fields;
  } catch {
    // reported below
  }
  if (!Number.isInteger(task) || typeof fields.cwd !== "string" || typeof fields.path !== "string") {
    throw new Error(`not a ${DIFF_SCHEME} document: ${uriPath}?${query}`);
  }
  return { task, cwd: fields.cwd, commit: typeof fields.commit === "string" ? fields.commit : "", path: fields.path };
}

export type GitRunner = (cwd: string, args: readonly string[]) => Promise<string>;

/** Runs git (no shell) and answers its stdout; a failure is a sentence naming the folder and git's words. */
export const runGit: GitRunner = (cwd, args) => new Promise((resolve, reject) => {
  execFile("git", [...args], { cwd, maxBuffer: 64 * 1024 * 1024, encoding: "utf8", env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" } }, (error, stdout, stderr) => {
    if (error) {
      reject(new Error(`git ${args.join(" ")} failed in ${cwd}: ${(stderr || error.message).trim()}`));
    } else {
      resolve(stdout);
    }
  });
});

/** The content of a side: empty without a commit, else the file at that commit. */
export async function sideContent(side: GitSide, git: GitRunner = runGit): Promise<string> {
  if (side.commit === "") {
    return "";
  }
  return git(side.cwd, ["show", `${side.commit}:${side.path}`]);
}
