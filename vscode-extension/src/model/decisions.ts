// Pending decisions (the "Needs you" list) and how each is shown and answered: labels for options, which
// option approves and which denies, and a calendar proposal's change as before/after text.

import { Decision, DecisionClosed } from "../protocol/types";

const LABELS: Readonly<Record<string, string>> = {
  allow: "Allow",
  allow_once: "Allow once",
  allow_always: "Always allow",
  deny: "Deny",
  approve: "Approve",
  reject: "Reject",
  adopt: "Adopt",
  decline: "Decline",
};

const APPROVE = ["allow_once", "allow", "approve", "adopt"];
const DENY = ["deny", "reject", "decline"];

export function optionLabel(option: string): string {
  return LABELS[option] ?? option;
}

/** The option that says yes (allow_once, allow, approve, adopt), if the decision has one. */
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

/** The command a notification's links run: `[decision id, what]`. */
export const PROMPT_COMMAND = "roundhouse.answerFromPrompt";

/** What a notification's link asks for: an option, the decision shown in full, or the input box for text. */
export type PromptAction = { readonly option: string } | { readonly show: true } | { readonly text: true };

export function isPromptAction(value: unknown): value is PromptAction {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const action = value as Record<string, unknown>;
  return typeof action.option === "string" || action.show === true || action.text === true;
}

/**
 * Text from the hub (an agent's words) made safe for a notification: VS Code renders `[label](command:…)`
 * in a notification's message as a link that runs the command, so the `](` of such a link is broken up.
 */
export function inertText(text: string): string {
  return text.replace(/\]\(/g, "] (");
}

/** A markdown link that runs PROMPT_COMMAND for this decision (parentheses escaped: they end a link). */
function promptLink(label: string, decision: number, action: PromptAction): string {
  const args = encodeURIComponent(JSON.stringify([decision, action])).replace(/\(/g, "%28").replace(/\)/g, "%29");
  return `[${label}](command:${PROMPT_COMMAND}?${args})`;
}

const MESSAGE_CHARS = 240;

/**
 * A decision's notification: "Roundhouse · task #7: Bash — Run: make deploy", then a link per option (a
 * proposal's "Show change"; a question's "Answer…"). VS Code cuts a notification at 1,000 characters, so the
 * message is shortened to keep the links.
 */
export function promptText(decision: Decision): string {
  const message = decision.message && decision.message !== decision.title ? decision.message : "";
  const short = message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS - 1)}…` : message;
  const links = decision.options.length === 0
    ? [promptLink("Answer…", decision.id, { text: true })]
    : decision.options.map((option) => promptLink(optionLabel(option), decision.id, { option }));
  if (proposalView(decision)) {
    links.push(promptLink("Show change", decision.id, { show: true }));
  }
  return `Roundhouse · ${inertText(decisionHeadline(decision))}${short ? ` — ${inertText(short)}` : ""}  ${links.join(" · ")}`;
}

const KIND_LABELS: Readonly<Record<string, string>> = {
  permission: "Permission",
  question: "Question",
  settings_drift: "Settings drift",
  calendar_proposal: "Calendar proposal",
  mcp_consent: "MCP sign-in",
};

/** The decision's kind in words: "Permission", "Question", "Settings drift", … */
export function decisionKindLabel(decision: Decision): string {
  return KIND_LABELS[decision.kind] ?? (decision.kind.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()) || "Decision");
}

function firstLine(text: string | undefined): string {
  return (text ?? "").trim().split(/\r?\n/)[0]?.trim() ?? "";
}

/** What the decision is about in a few words: its title, else its message's first line, else its kind. */
export function decisionSummary(decision: Decision): string {
  return firstLine(decision.title) || firstLine(decision.message) || decisionKindLabel(decision);
}

/** A Needs you row's label, never empty: "task #7: Bash", "Question · task #7: Which database?". */
export function decisionLabel(decision: Decision): string {
  const where = decision.task_id ? `task #${decision.task_id}: ` : "";
  const kind = decision.kind === "permission" || decision.kind === "calendar_proposal" ? "" : `${decisionKindLabel(decision)} · `;
  return `${kind}${where}${decisionSummary(decision)}`;
}

/**
 * What a screen reader says for a Needs you row: kind, task, summary, the message and the options, such as
 * "Permission for task #7: Bash. Run: make deploy. Options: Allow once, Always allow, Deny".
 */
export function decisionAriaLabel(decision: Decision): string {
  const parts = [`${decisionKindLabel(decision)}${decision.task_id ? ` for task #${decision.task_id}` : ""}: ${decisionSummary(decision)}`];
  const message = (decision.message ?? "").trim();
  const rest = firstLine(message) === decisionSummary(decision) ? message.split(/\r?\n/).slice(1).join(" ").trim() : message;
  if (rest) {
    parts.push(rest); // the message, less the line the summary already says
  }
  parts.push(decision.options.length > 0 ? `Options: ${decision.options.map(optionLabel).join(", ")}` : "Answer with text");
  return parts.join(". ");
}

/** One line naming the decision and where it comes from. */
export function decisionHeadline(decision: Decision): string {
  const where = decision.task_id ? `task #${decision.task_id}: ` : "";
  return `${where}${decisionSummary(decision)}`;
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
  private read = false;

  /** Whether the list was read from the hub at least once (until then, empty means unknown). */
  get loaded(): boolean {
    return this.read;
  }

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

  /**
   * Replaces the book with a fresh list (after a reconnect); prompts already shown stay shown. Answers the
   * ids that were pending and are not any more (closed while the bridge was away).
   */
  reset(decisions: readonly Decision[]): number[] {
    const before = [...this.pendingById.keys()];
    this.read = true;
    this.pendingById.clear();
    decisions.filter((d) => d.status === "pending").forEach((d) => this.pendingById.set(d.id, d));
    return before.filter((id) => !this.pendingById.has(id));
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
