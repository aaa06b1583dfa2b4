// Pending decisions (the "Needs you" list) and how each is shown and answered: labels for options, which
// option approves and which denies, and a calendar proposal's change as before/after text.

import { Decision, DecisionClosed } from "../protocol/types";

const LABELS: Readonly<Record<string, string>> = {
  allow_once: "Allow once",
  allow_always: "Always allow",
  deny: "Deny",
  approve: "Approve",
  reject: "Reject",
  adopt: "Adopt",
  decline: "Decline",
};

const APPROVE = ["allow_once", "approve", "adopt"];
const DENY = ["deny", "reject", "decline"];

export function optionLabel(option: string): string {
  return LABELS[option] ?? option;
}

/** The option that says yes (allow_once, approve, adopt), if the decision has one. */
export function approveOption(decision: Decision): string | undefined {
  return APPROVE.find((option) => decision.options.includes(option));
}

/** The option that says no (deny, reject, decline), if the decision has one. */
export function denyOption(decision: Decision): string | undefined {
  return DENY.find((option) => decision.options.includes(option));
}

/** What a tree item's context value says of a decision, for its inline actions. */
export function decisionContext(decision: Decision): string {
  if (decision.kind === "permission") {
    return "decision.permission";
  }
  if (approveOption(decision) && denyOption(decision)) {
    return "decision.binary";
  }
  return decision.options.length === 0 ? "decision.text" : "decision.choice";
}

/** One line naming the decision and where it comes from. */
export function decisionHeadline(decision: Decision): string {
  const where = decision.task_id ? `task #${decision.task_id}: ` : "";
  return `${where}${decision.title}`;
}

type Fields = Readonly<Record<string, unknown>>;

function fields(value: unknown): Fields | undefined {
  return typeof value === "object" && value !== null ? (value as Fields) : undefined;
}

function str(value: unknown): string {
  return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
}

/** An event's side of a calendar proposal as lines (its fields, or its ICS text). */
function side(value: Fields | undefined): string[] {
  if (!value) {
    return ["(none)"];
  }
  if (typeof value.ics === "string" && value.start_local === undefined) {
    const lines = [`title: ${str(value.title)}`].filter((line) => line !== "title: ");
    return [...lines, ...value.ics.split(/\r?\n/).filter((line) => line.length > 0)];
  }
  const lines: string[] = [];
  for (const key of ["title", "start_local", "end_local", "zone", "all_day", "location", "description"]) {
    if (value[key] !== undefined && value[key] !== null) {
      lines.push(`${key}: ${str(value[key])}`);
    }
  }
  return lines;
}

export interface ProposalView {
  readonly action: string;
  readonly calendar: string;
  readonly before: readonly string[];
  readonly after: readonly string[];
  /** A line-by-line comparison: "  " kept, "- " only before, "+ " only after. */
  readonly diff: readonly string[];
}

/** A calendar proposal's change, from its request's before/after (docs/calendar.md). */
export function proposalView(decision: Decision): ProposalView | undefined {
  if (decision.kind !== "calendar_proposal" || !decision.request) {
    return undefined;
  }
  const request = decision.request;
  const before = request.before === null ? ["(none)"] : side(fields(request.before));
  const after = request.after === null ? ["(deleted)"] : side(fields(request.after));
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  const diff = [
    ...before.map((line) => (afterSet.has(line) ? `  ${line}` : `- ${line}`)),
    ...after.filter((line) => !beforeSet.has(line)).map((line) => `+ ${line}`),
  ];
  return { action: str(request.action), calendar: str(request.calendar), before, after, diff };
}

/** The decision as text for a prompt or a document: headline, message, and a proposal's change. */
export function decisionDetail(decision: Decision): string {
  const parts = [decisionHeadline(decision)];
  if (decision.message && decision.message !== decision.title) {
    parts.push(decision.message);
  }
  const proposal = proposalView(decision);
  if (proposal) {
    parts.push(`${proposal.action} on calendar ${proposal.calendar}`, ...proposal.diff);
  }
  return parts.join("\n");
}

/**
 * The pending decisions, in the order they opened, and which have had their native prompt (each is
 * prompted once, however often the bridge offers it: at start, after a reconnect).
 */
export class DecisionBook {
  private readonly pendingById = new Map<number, Decision>();
  private readonly prompted = new Set<number>();

  get pending(): readonly Decision[] {
    return [...this.pendingById.values()];
  }

  get size(): number {
    return this.pendingById.size;
  }

  get(id: number): Decision | undefined {
    return this.pendingById.get(id);
  }

  /** Records a pending decision; answers whether it is new to the book. */
  open(decision: Decision): boolean {
    if (decision.status !== "pending") {
      return false;
    }
    const fresh = !this.pendingById.has(decision.id);
    this.pendingById.set(decision.id, decision);
    return fresh;
  }

  close(closed: DecisionClosed): boolean {
    return this.pendingById.delete(closed.decision);
  }

  /** Replaces the book with a fresh list (after a reconnect); prompts already shown stay shown. */
  reset(decisions: readonly Decision[]): void {
    this.pendingById.clear();
    decisions.filter((d) => d.status === "pending").forEach((d) => this.pendingById.set(d.id, d));
  }

  /** Whether to show a native prompt for this decision now: once per decision, while it is pending. */
  claimPrompt(id: number): boolean {
    if (!this.pendingById.has(id) || this.prompted.has(id)) {
      return false;
    }
    this.prompted.add(id);
    return true;
  }

  countForTask(task: number): number {
    let count = 0;
    for (const decision of this.pendingById.values()) {
      if (decision.task_id === task) {
        count++;
      }
    }
    return count;
  }
}
