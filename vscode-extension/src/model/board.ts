// The board as the tree shows it: projects, then tasks grouped by status, with badges. Holds what the
// hub sent (boards, the running turns seen) and turns it into plain node views; no vscode here.

import { Board, HubEvent, Project, Task, TaskStatus, TASK_STATUSES } from "../protocol/types";
import { DecisionBook } from "./decisions";
import { WorkspaceModel, WorkspaceNode } from "./workspace";

const STATUS_LABELS: Readonly<Record<TaskStatus, string>> = {
  backlog: "Backlog",
  todo: "To do",
  in_progress: "In progress",
  review: "Review",
  done: "Done",
  cancelled: "Cancelled",
};

export function statusLabel(status: TaskStatus): string {
  return STATUS_LABELS[status];
}

export type BoardNode =
  | { readonly kind: "project"; readonly project: Project }
  | { readonly kind: "status"; readonly project: Project; readonly status: TaskStatus; readonly tasks: readonly Task[] }
  | { readonly kind: "task"; readonly task: Task }
  | WorkspaceNode;

const BOARD_KINDS = new Set(["project", "status", "task"]);

/** A node of the task workspace or services (loaded on demand by WorkspaceModel). */
export function isWorkspaceNode(node: BoardNode): node is WorkspaceNode {
  return !BOARD_KINDS.has(node.kind);
}

/** What a tree item shows for a node. */
export interface NodeView {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly contextValue: string;
  readonly icon: string;
  readonly expandable: boolean;
  readonly expanded: boolean;
  /** What a screen reader says for the row, when the label and description alone do not say it. */
  readonly ariaLabel?: string;
}

export interface TaskBadges {
  readonly running: boolean;
  readonly needsYou: number;
  readonly suggested: boolean;
}

/** Columns that start folded: they only grow. */
const CLOSED_COLUMNS: ReadonlySet<TaskStatus> = new Set(["done", "cancelled"]);

/** Turn statuses that mean "a turn is on this task". */
const ACTIVE_TURN = new Set(["running", "lingering"]);

export class BoardModel {
  private projectList: readonly Project[] = [];
  private readonly boards = new Map<number, Board>();
  private readonly runningTasks = new Set<number>();

  constructor(private readonly decisions: DecisionBook, readonly workspace?: WorkspaceModel) {}

  get projects(): readonly Project[] {
    return this.projectList;
  }

  setProjects(projects: readonly Project[], only: readonly string[] = []): void {
    const wanted = new Set(only.map((name) => name.toLowerCase()));
    this.projectList = projects.filter((p) => wanted.size === 0 || wanted.has(p.name.toLowerCase()));
    const kept = new Set(this.projectList.map((p) => p.id));
    for (const id of [...this.boards.keys()]) {
      if (!kept.has(id)) {
        this.boards.delete(id);
      }
    }
  }

  setBoard(board: Board): void {
    this.boards.set(board.project.id, board);
  }

  board(project: number): Board | undefined {
    return this.boards.get(project);
  }

  /** Every task on the boards read so far. */
  tasks(): readonly Task[] {
    return [...this.boards.values()].flatMap((b) => b.columns.flatMap((c) => c.tasks));
  }

  task(id: number): Task | undefined {
    return this.tasks().find((t) => t.id === id);
  }

  setTurnStatus(task: number, status: string): void {
    if (ACTIVE_TURN.has(status)) {
      this.runningTasks.add(task);
    } else {
      this.runningTasks.delete(task);
    }
  }

  get running(): ReadonlySet<number> {
    return this.runningTasks;
  }

  /**
   * Applies a hub event: turn starts and ends change the running badges. Answers the id of the project
   * whose board must be read again (a task changed), if any.
   */
  apply(event: HubEvent): number | undefined {
    if (event.type === "turn.started" && event.task_id !== undefined) {
      this.runningTasks.add(event.task_id);
    } else if (event.type === "turn.ended" && event.task_id !== undefined) {
      this.runningTasks.delete(event.task_id);
    }
    if (event.type.startsWith("task.") || event.type.startsWith("project.")) {
      return event.project_id;
    }
    return undefined;
  }

  badges(task: Task): TaskBadges {
    return { running: this.runningTasks.has(task.id), needsYou: this.decisions.countForTask(task.id), suggested: task.suggested === true };
  }

  children(node?: BoardNode): readonly BoardNode[] {
    if (!node) {
      return this.projectList.map((project) => ({ kind: "project", project }));
    }
    if (node.kind === "project") {
      const board = this.boards.get(node.project.id);
      if (!board) {
        return [];
      }
      const services: BoardNode[] = this.workspace?.projectChildren(node.project) ?? [];
      return [...services, ...TASK_STATUSES
        .map((status) => ({ status, tasks: board.columns.find((c) => c.status === status)?.tasks ?? [] }))
        .filter((column) => column.tasks.length > 0)
        .map((column): BoardNode => ({ kind: "status", project: node.project, status: column.status, tasks: column.tasks }))];
    }
    if (node.kind === "status") {
      return node.tasks.map((task) => ({ kind: "task", task }));
    }
    if (node.kind === "task") {
      return this.workspace?.taskChildren(node.task) ?? [];
    }
    return [];
  }

  /** The node above a board node (for revealing a task), or undefined for a project. */
  parent(node: BoardNode): BoardNode | undefined {
    if (node.kind === "project") {
      return undefined;
    }
    if (node.kind === "status") {
      return { kind: "project", project: node.project };
    }
    if (node.kind !== "task") {
      return undefined; // the workspace's nodes are never revealed
    }
    const task = node.task;
    const board = this.boards.get(task.project_id);
    const column = board?.columns.find((c) => c.tasks.some((t) => t.id === task.id));
    return board && column ? { kind: "status", project: board.project, status: column.status, tasks: column.tasks } : undefined;
  }

  /** The task's node as the tree shows it, if the boards read hold it. */
  taskNode(id: number): BoardNode | undefined {
    const task = this.task(id);
    return task ? { kind: "task", task } : undefined;
  }

  view(node: BoardNode): NodeView {
    if (isWorkspaceNode(node)) {
      if (!this.workspace) {
        throw new Error(`a ${node.kind} node needs the workspace model`);
      }
      return this.workspace.view(node);
    }
    switch (node.kind) {
      case "project": {
        const tasks = this.boards.get(node.project.id)?.columns.flatMap((c) => c.tasks) ?? [];
        const running = tasks.filter((t) => this.runningTasks.has(t.id)).length;
        const waiting = tasks.reduce((sum, t) => sum + this.decisions.countForTask(t.id), 0);
        return {
          id: `project:${node.project.id}`, label: node.project.name, description: summary(running, waiting),
          tooltip: node.project.path ?? node.project.name, contextValue: "project", icon: "repo", expandable: true, expanded: true,
          ariaLabel: [`Project ${node.project.name}`, summary(running, waiting)].filter((s) => s).join(", "),
        };
      }
      case "status": {
        const running = node.tasks.filter((t) => this.runningTasks.has(t.id)).length;
        return {
          id: `status:${node.project.id}:${node.status}`, label: statusLabel(node.status),
          description: running > 0 ? `${node.tasks.length} · ${running} running` : String(node.tasks.length),
          tooltip: `${node.tasks.length} ${statusLabel(node.status).toLowerCase()}`, contextValue: `status.${node.status}`, icon: "list-unordered",
          ariaLabel: `${statusLabel(node.status)}, ${node.tasks.length} task${node.tasks.length === 1 ? "" : "s"}${running > 0 ? `, ${running} running` : ""}`,
          // Every open column starts expanded (a new Backlog group showed a just-filed task folded away);
          // Done and Cancelled only grow, so they start folded.
          expandable: true, expanded: !CLOSED_COLUMNS.has(node.status),
        };
      }
      case "task": {
        const badges = this.badges(node.task);
        return {
          id: `task:${node.task.id}`, label: `#${node.task.id} ${node.task.title}`, description: badgeText(badges),
          tooltip: [node.task.title, node.task.description ?? "", `status: ${statusLabel(node.task.status)}`,
            badges.running ? "a turn is running (the task stays in its column until it is moved)" : ""].filter((s) => s.length > 0).join("\n"),
          contextValue: `task.${badges.running ? "running" : "idle"}${badges.suggested ? ".suggested" : ""}`,
          icon: badges.needsYou > 0 ? "bell-dot" : badges.running ? "sync~spin" : badges.suggested ? "lightbulb" : "circle-outline",
          expandable: this.workspace?.modules.workspace === true, expanded: false,
          ariaLabel: [`Task #${node.task.id} ${node.task.title}`, statusLabel(node.task.status), badgeText(badges)].filter((s) => s).join(", "),
        };
      }
    }
  }
}

function summary(running: number, waiting: number): string {
  const parts: string[] = [];
  if (running > 0) {
    parts.push(`${running} running`);
  }
  if (waiting > 0) {
    parts.push(`${waiting} need${waiting === 1 ? "s" : ""} you`);
  }
  return parts.join(" · ");
}

/** The badges as the tree item's description: "running · needs you (2) · suggested". */
export function badgeText(badges: TaskBadges): string {
  const parts: string[] = [];
  if (badges.running) {
    parts.push("running");
  }
  if (badges.needsYou > 0) {
    parts.push(badges.needsYou === 1 ? "needs you" : `needs you (${badges.needsYou})`);
  }
  if (badges.suggested) {
    parts.push("suggested");
  }
  return parts.join(" · ");
}

/** The status bar's text and tooltip for the running turns and pending decisions. */
export function statusBarText(running: number, pending: number): { readonly text: string; readonly tooltip: string } {
  const text = `$(sync${running > 0 ? "~spin" : ""}) ${running}  $(bell${pending > 0 ? "-dot" : ""}) ${pending}`;
  const tooltip = `Roundhouse: ${running} turn${running === 1 ? "" : "s"} running, ${pending} decision${pending === 1 ? "" : "s"} waiting for you`;
  return { text, tooltip };
}
