// A task's git workspace and a project's dev services as the board tree shows them: "Changes" (task_diff),
// "Reviews" (get_review) under each task, "Services" (service_list) under each project. Holds what the hub
// sent, loads what a node needs on demand, and turns it into plain node views; no vscode here.

import { RoundhouseApi } from "../protocol/api";
import { describeError } from "../protocol/connection";
import {
  FileChange, HubEvent, MergeView, Project, Review, ReviewComment, ReviewList, ServiceList, ServiceStatus, ServiceView, Task,
  TaskDiff, TaskWorkspace,
} from "../protocol/types";

export type WorkspaceNode =
  | { readonly kind: "changes"; readonly task: Task }
  | { readonly kind: "file"; readonly task: Task; readonly file: FileChange }
  | { readonly kind: "reviews"; readonly task: Task }
  | { readonly kind: "review"; readonly task: Task; readonly review: Review }
  | { readonly kind: "comment"; readonly task: Task; readonly review: Review; readonly comment: ReviewComment }
  | { readonly kind: "services"; readonly project: Project }
  | { readonly kind: "service"; readonly project: Project; readonly service: ServiceView }
  | { readonly kind: "note"; readonly id: string; readonly text: string; readonly tooltip: string };

/** What the hub offers, from roundhouse/operations: the workspace and services modules are optional. */
export interface HubModules {
  readonly workspace: boolean;
  readonly services: boolean;
}

export function hubModules(operations: ReadonlySet<string>): HubModules {
  return {
    workspace: operations.has("task_diff") && operations.has("task_workspace"),
    services: operations.has("service_list") && operations.has("service_logs"),
  };
}

/** A task's changes: the diff and the workspace (worktree folder, base), or the hub's sentence why not. */
export type ChangesState =
  | { readonly state: "loaded"; readonly diff: TaskDiff; readonly workspace: TaskWorkspace }
  | { readonly state: "failed"; readonly reason: string };

export type ReviewsState = { readonly state: "loaded"; readonly reviews: ReviewList } | { readonly state: "failed"; readonly reason: string };

const KIND_LETTER: Readonly<Record<FileChange["kind"], string>> = { ADDED: "A", MODIFIED: "M", DELETED: "D", RENAMED: "R" };
const RUNNING: ReadonlySet<ServiceStatus> = new Set(["starting", "ready", "backoff", "stopping"]);

export function serviceRunning(status: ServiceStatus): boolean {
  return RUNNING.has(status);
}

export class WorkspaceModel {
  modules: HubModules = { workspace: false, services: false };
  private readonly changes = new Map<number, ChangesState>();
  private readonly loadingChanges = new Map<number, Promise<ChangesState>>();
  private readonly reviewLists = new Map<number, ReviewsState>();
  private readonly serviceLists = new Map<number, ServiceList>();

  constructor(private readonly api: () => RoundhouseApi) {}

  /** Reads which modules the hub runs (once per connection); `operations` when they were read already. */
  async detect(operations?: ReadonlySet<string>): Promise<HubModules> {
    this.modules = hubModules(operations ?? await this.api().operationNames());
    return this.modules;
  }

  /** The task's diff and workspace, read once and kept until an event says they changed. */
  async loadChanges(task: number): Promise<ChangesState> {
    const known = this.changes.get(task);
    if (known) {
      return known;
    }
    let loading = this.loadingChanges.get(task);
    if (!loading) {
      loading = (async (): Promise<ChangesState> => {
        try {
          const api = this.api();
          const [diff, workspace] = await Promise.all([api.taskDiff(task), api.taskWorkspace(task)]);
          return { state: "loaded", diff, workspace };
        } catch (error) {
          return { state: "failed", reason: describeError(error) };
        }
      })().then((state) => {
        this.loadingChanges.delete(task);
        this.changes.set(task, state);
        return state;
      });
      this.loadingChanges.set(task, loading);
    }
    return loading;
  }

  changesOf(task: number): ChangesState | undefined {
    return this.changes.get(task);
  }

  async loadReviews(task: number): Promise<ReviewsState> {
    const known = this.reviewLists.get(task);
    if (known) {
      return known;
    }
    let state: ReviewsState;
    try {
      state = { state: "loaded", reviews: await this.api().reviews(task) };
    } catch (error) {
      state = { state: "failed", reason: describeError(error) };
    }
    this.reviewLists.set(task, state);
    return state;
  }

  /** Reads the services of these projects (nothing when the hub has no services module). */
  async loadServices(projects: readonly Project[]): Promise<void> {
    if (!this.modules.services) {
      this.serviceLists.clear();
      return;
    }
    await Promise.all(projects.map((project) => this.loadProjectServices(project.id)));
  }

  async loadProjectServices(project: number): Promise<ServiceList | undefined> {
    try {
      const list = await this.api().services(project);
      this.serviceLists.set(project, list);
      return list;
    } catch {
      this.serviceLists.delete(project);
      return undefined;
    }
  }

  services(project: number): ServiceList | undefined {
    return this.serviceLists.get(project);
  }

  service(project: number, name: string): ServiceView | undefined {
    return this.serviceLists.get(project)?.services.find((s) => s.definition.name === name);
  }

  /** Forgets a task's diff and reviews (read again when shown). */
  forgetTask(task: number): void {
    this.changes.delete(task);
    this.reviewLists.delete(task);
  }

  /**
   * Applies a hub event: a turn's end, a merge, a sync, a review or a pull request make the task's changes
   * and reviews stale; a service event asks for its project's services again. Answers the project whose
   * services must be read again, if any.
   */
  apply(event: HubEvent): number | undefined {
    if (event.task_id !== undefined && event.task_id !== null
      && (event.type === "turn.ended" || event.type.startsWith("workspace.") || event.type.startsWith("review.") || event.type.startsWith("pr."))) {
      this.forgetTask(event.task_id);
    }
    if (event.type.startsWith("workspace.") && (event.task_id === undefined || event.task_id === null)) {
      this.changes.clear(); // a base moved: every diff of the project may have changed
    }
    if (event.type.startsWith("service.") && event.project_id !== undefined && event.project_id !== null) {
      return event.project_id;
    }
    return undefined;
  }

  /** The nodes under a task (when the hub has the workspace module). */
  taskChildren(task: Task): WorkspaceNode[] {
    return this.modules.workspace ? [{ kind: "changes", task }, { kind: "reviews", task }] : [];
  }

  /** The nodes under a project before its status groups: its services, when it declares any. */
  projectChildren(project: Project): WorkspaceNode[] {
    const list = this.serviceLists.get(project.id);
    return list && list.services.length > 0 ? [{ kind: "services", project }] : [];
  }

  /** Children of a workspace node; loads what it needs first. */
  async children(node: WorkspaceNode): Promise<WorkspaceNode[]> {
    switch (node.kind) {
      case "changes": {
        const state = await this.loadChanges(node.task.id);
        if (state.state === "failed") {
          return [note(`changes:${node.task.id}:failed`, state.reason)];
        }
        if (state.diff.diff.files.length === 0) {
          return [note(`changes:${node.task.id}:none`, "No changes yet")];
        }
        return state.diff.diff.files.map((file) => ({ kind: "file", task: node.task, file }));
      }
      case "reviews": {
        const state = await this.loadReviews(node.task.id);
        if (state.state === "failed") {
          return [note(`reviews:${node.task.id}:failed`, state.reason)];
        }
        if (state.reviews.reviews.length === 0) {
          return [note(`reviews:${node.task.id}:none`, "No reviews yet")];
        }
        return state.reviews.reviews.map((review) => ({ kind: "review", task: node.task, review }));
      }
      case "review":
        return (node.review.comments ?? []).map((comment) => ({ kind: "comment", task: node.task, review: node.review, comment }));
      case "services":
        return (this.serviceLists.get(node.project.id)?.services ?? []).map((service) => ({ kind: "service", project: node.project, service }));
      default:
        return [];
    }
  }

  view(node: WorkspaceNode): NodeViewLike {
    switch (node.kind) {
      case "changes": {
        const state = this.changes.get(node.task.id);
        const diff = state?.state === "loaded" ? state.diff : undefined;
        const description = diff ? changesSummary(diff) : "";
        return {
          id: `changes:${node.task.id}`, label: "Changes", description,
          tooltip: diff ? `${diff.branch ?? ""} against ${diff.diff.base_branch ?? "its base"} (merge-base ${short(diff.diff.merge_base)})` : "What the task changed against its base branch",
          contextValue: "changes", icon: "git-compare", expandable: true, expanded: false,
        };
      }
      case "file": {
        const file = node.file;
        const counts = file.binary ? "binary" : `+${file.added ?? 0} −${file.removed ?? 0}`;
        const renamed = file.kind === "RENAMED" && file.old_path ? ` ← ${file.old_path}` : "";
        return {
          id: `file:${node.task.id}:${file.path}`, label: file.path,
          description: [KIND_LETTER[file.kind], counts, file.uncommitted ? "uncommitted" : ""].filter((s) => s).join(" · ") + renamed,
          tooltip: `${file.kind.toLowerCase()}${renamed}${file.uncommitted ? " (uncommitted changes in the worktree)" : ""}`,
          contextValue: `file${file.uncommitted ? ".uncommitted" : ""}`,
          icon: file.kind === "ADDED" ? "diff-added" : file.kind === "DELETED" ? "diff-removed" : file.kind === "RENAMED" ? "diff-renamed" : "diff-modified",
          expandable: false, expanded: false,
        };
      }
      case "reviews": {
        const state = this.reviewLists.get(node.task.id);
        const description = state?.state === "loaded" ? reviewStateLabel(state.reviews.state) : "";
        return {
          id: `reviews:${node.task.id}`, label: "Reviews", description, tooltip: "Reviews of the task's diff",
          contextValue: "reviews", icon: state?.state === "loaded" && state.reviews.state === "changes_requested" ? "request-changes" : "comment-discussion",
          expandable: true, expanded: false,
        };
      }
      case "review": {
        const review = node.review;
        const comments = review.comments?.length ?? 0;
        return {
          id: `review:${node.task.id}:${review.reviewer}`, label: `${review.reviewer}: ${verdictLabel(review.verdict)}`,
          description: review.summary ?? "", tooltip: [review.summary ?? "", review.submitted_at ? `submitted ${review.submitted_at}` : "", review.head ? `on ${short(review.head)}` : ""].filter((s) => s).join("\n"),
          contextValue: `review.${review.verdict}`, icon: review.verdict === "approve" ? "pass" : "request-changes",
          expandable: comments > 0, expanded: comments > 0,
        };
      }
      case "comment":
        return {
          id: `comment:${node.task.id}:${node.review.reviewer}:${node.comment.path}:${node.comment.line}:${node.review.comments?.indexOf(node.comment) ?? 0}`,
          label: `${node.comment.path}:${node.comment.line}`, description: node.comment.body, tooltip: node.comment.body,
          contextValue: "comment", icon: "comment", expandable: false, expanded: false,
        };
      case "services": {
        const services = this.serviceLists.get(node.project.id);
        const running = services?.services.filter((s) => serviceRunning(s.state.status)).length ?? 0;
        return {
          id: `services:${node.project.id}`, label: "Services", description: `${running} of ${services?.services.length ?? 0} running${services?.port ? ` · PORT ${services.port}` : ""}`,
          tooltip: "The project's dev services", contextValue: "services", icon: "server-process", expandable: true, expanded: running > 0,
        };
      }
      case "service": {
        const state = node.service.state;
        return {
          id: `service:${node.project.id}:${state.name}`, label: state.name,
          description: [state.status, state.pid ? `pid ${state.pid}` : "", state.restarts ? `${state.restarts} restarts` : ""].filter((s) => s).join(" · "),
          tooltip: [node.service.definition.command ?? (node.service.definition.argv ?? []).join(" "), state.message ?? ""].filter((s) => s).join("\n"),
          contextValue: `service.${state.status}`,
          icon: state.status === "ready" ? "vm-running" : state.status === "failed" ? "error" : serviceRunning(state.status) ? "loading~spin" : "vm-outline",
          expandable: false, expanded: false,
        };
      }
      case "note":
        return { id: node.id, label: node.text, description: "", tooltip: node.tooltip, contextValue: "note", icon: "info", expandable: false, expanded: false };
    }
  }
}

/** The shape BoardModel.view answers (kept structural so this file does not import the board). */
export interface NodeViewLike {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly contextValue: string;
  readonly icon: string;
  readonly expandable: boolean;
  readonly expanded: boolean;
}

function note(id: string, text: string): WorkspaceNode {
  return { kind: "note", id, text, tooltip: text };
}

function short(commit: string | undefined): string {
  return commit ? commit.slice(0, 8) : "?";
}

/** "3 files · +10 −2 · 1 uncommitted". */
export function changesSummary(diff: TaskDiff): string {
  const files = diff.diff.files;
  const uncommitted = files.filter((f) => f.uncommitted).length;
  const parts = [`${files.length} file${files.length === 1 ? "" : "s"}`, `+${diff.diff.added ?? 0} −${diff.diff.removed ?? 0}`];
  if (uncommitted > 0) {
    parts.push(`${uncommitted} uncommitted`);
  }
  return parts.join(" · ");
}

export function verdictLabel(verdict: string): string {
  return verdict === "approve" ? "approved" : verdict === "request_changes" ? "changes requested" : verdict;
}

export function reviewStateLabel(state: ReviewList["state"]): string {
  return state === "approved" ? "approved" : state === "changes_requested" ? "changes requested" : "";
}

/** What to tell the user after a merge or a sync, and whether it was a conflict the agent could resolve. */
export function mergeSummary(what: "merge" | "sync", view: MergeView): { readonly level: "info" | "warning"; readonly text: string; readonly conflict: boolean } {
  const result = view.result;
  const conflicts = result.conflicts ?? [];
  const sentence = result.message ? `: ${result.message}` : "";
  switch (result.outcome) {
    case "FAST_FORWARD":
    case "MERGE_COMMIT":
    case "UP_TO_DATE":
      return { level: "info", text: `#${view.task} ${what === "merge" ? "merge" : "sync"} ${result.outcome === "UP_TO_DATE" ? "up to date" : result.outcome === "FAST_FORWARD" ? "fast-forwarded" : "made a merge commit"}${sentence}`, conflict: false };
    case "CONFLICT":
      return { level: "warning", text: `#${view.task} ${what} conflicts in ${conflicts.join(", ") || "some files"}; nothing was changed${view.asked_agent ? ` (the agent was asked to resolve it: ${view.delivery ?? "sent"})` : ""}`, conflict: true };
    default:
      return { level: "warning", text: `#${view.task} ${what} refused${sentence}`, conflict: false };
  }
}

/** The file of the task's diff that a review comment is on, if the diff is loaded and still has it. */
export function fileOfComment(state: ChangesState | undefined, comment: ReviewComment): FileChange | undefined {
  return state?.state === "loaded" ? state.diff.diff.files.find((f) => f.path === comment.path) : undefined;
}

/** The review comments on one line of a file, from every reviewer, oldest review first. */
export interface CommentThreadView {
  readonly path: string;
  /** 1-based, in the task's version of the file. */
  readonly line: number;
  readonly comments: readonly { readonly author: string; readonly verdict: string; readonly body: string }[];
}

/**
 * The review comments on `path`, one thread per line (get_review lists reviews newest first; a thread reads
 * oldest first, as a conversation). Comments without a usable line are left out: the Reviews tree lists them.
 */
export function commentThreads(reviews: ReviewList, path: string): CommentThreadView[] {
  const byLine = new Map<number, { author: string; verdict: string; body: string }[]>();
  for (const review of [...reviews.reviews].reverse()) {
    for (const comment of review.comments ?? []) {
      if (comment.path !== path || !Number.isInteger(comment.line) || comment.line < 1) {
        continue;
      }
      const thread = byLine.get(comment.line) ?? [];
      thread.push({ author: review.reviewer, verdict: verdictLabel(review.verdict), body: comment.body });
      byLine.set(comment.line, thread);
    }
  }
  return [...byLine.entries()].sort(([a], [b]) => a - b).map(([line, comments]) => ({ path, line, comments }));
}
