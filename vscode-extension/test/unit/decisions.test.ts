import { test } from "node:test";
import assert from "node:assert/strict";
import { DecisionBook, approveOption, decisionContext, decisionDetail, decisionLabel, denyOption, optionLabel, proposalView } from "../../src/model/decisions";
import { launchProblem, launchSettings } from "../../src/model/launch";
import { Decision } from "../../src/protocol/types";
import { DecisionDocuments } from "../../src/views/decisionDocuments";
import { Uri } from "vscode";

const permission: Decision = {
  id: 1, kind: "permission", title: "Bash", message: "Run: make deploy", options: ["allow_once", "allow_always", "deny"], task_id: 7, status: "pending",
};

const createProposal: Decision = {
  id: 2, kind: "calendar_proposal", title: "Create Work - Meetings - Planning", options: ["approve", "reject"], status: "pending",
  request: { action: "create", calendar: "work", before: null, after: { title: "Work - Meetings - Planning", start_local: "2026-12-01T10:00", end_local: "2026-12-01T11:00", zone: "Europe/Paris" } },
};

const moveProposal: Decision = {
  id: 3, kind: "calendar_proposal", title: "Move standup", options: ["approve", "reject"], status: "pending",
  request: {
    action: "replace", calendar: "work", uid: "u1",
    before: { title: "Standup", ics: "BEGIN:VEVENT\nUID:u1\nDTSTART:20261201T090000Z\nEND:VEVENT" },
    after: { ics: "BEGIN:VEVENT\nUID:u1\nDTSTART:20261201T100000Z\nEND:VEVENT" },
  },
};

test("options have labels, and approve/deny pick the right option for each kind", () => {
  assert.equal(optionLabel("allow_once"), "Allow once");
  assert.equal(optionLabel("maybe"), "maybe");
  assert.equal(approveOption(permission), "allow_once");
  assert.equal(denyOption(permission), "deny");
  assert.equal(approveOption(createProposal), "approve");
  assert.equal(denyOption(createProposal), "reject");
  assert.equal(decisionContext(permission), "decision.permission");
  assert.equal(decisionContext(createProposal), "decision.binary");
  assert.equal(decisionContext({ ...permission, kind: "question", options: [] }), "decision.text");
});

test("an MCP sign-in's consent reads as one, with Allow and Deny as its two answers", () => {
  const consent: Decision = {
    id: 4, kind: "mcp_consent", title: "Allow Cursor from 127.0.0.1 to use Roundhouse as you?", options: ["allow", "deny"], status: "pending",
  };
  assert.equal(optionLabel("allow"), "Allow");
  assert.equal(approveOption(consent), "allow");
  assert.equal(denyOption(consent), "deny");
  assert.equal(decisionContext(consent), "decision.binary");
  assert.equal(decisionLabel(consent), "MCP sign-in · Allow Cursor from 127.0.0.1 to use Roundhouse as you?");
});

test("a calendar proposal shows its change: a create's new event, an update's lines before and after", () => {
  const created = proposalView(createProposal);
  assert.ok(created);
  assert.deepEqual(created.before, ["(none)"]);
  assert.ok(created.diff.includes("+ start_local: 2026-12-01T10:00"), created.diff.join("\n"));
  const moved = proposalView(moveProposal);
  assert.ok(moved);
  assert.ok(moved.diff.includes("- DTSTART:20261201T090000Z"));
  assert.ok(moved.diff.includes("+ DTSTART:20261201T100000Z"));
  assert.ok(moved.diff.includes("  UID:u1"), "unchanged lines are kept as context");
  assert.match(decisionDetail(moveProposal), /replace on calendar work/);
  assert.equal(proposalView(permission), undefined);
});

test("the book prompts each decision once, even when the bridge offers it again after a reconnect", () => {
  const book = new DecisionBook();
  assert.equal(book.open(permission), true);
  assert.equal(book.claimPrompt(1), true);
  assert.equal(book.open(permission), false);
  assert.equal(book.claimPrompt(1), false);
  book.reset([permission, createProposal]);
  assert.equal(book.claimPrompt(1), false);
  assert.equal(book.claimPrompt(2), true);
  assert.equal(book.countForTask(7), 1);
  assert.equal(book.close({ decision: 1, status: "answered", answer: "deny" }), true);
  assert.equal(book.size, 1);
  assert.equal(book.claimPrompt(1), false, "a closed decision is not prompted");
});

test("launch settings are checked with the setting named, and a missing command says how to fix it", () => {
  assert.deepEqual(launchSettings("roundhouse", ["lsp"], {}), { command: "roundhouse", args: ["lsp"], env: {} });
  assert.throws(() => launchSettings("", ["lsp"], {}), /roundhouse\.server\.command/);
  assert.throws(() => launchSettings("roundhouse", "lsp", {}), /roundhouse\.server\.args must be a list of strings/);
  assert.throws(() => launchSettings("roundhouse", [], { ROUNDHOUSE_HOME: 3 }), /roundhouse\.server\.env\.ROUNDHOUSE_HOME must be a string/);
  const message = launchProblem(launchSettings("roundhouse", ["lsp"], {}), "spawn roundhouse ENOENT");
  assert.match(message, /roundhouse\.server\.command/);
  assert.match(message, /README/);
});

test("a decision's details open as a read-only document of its own (an untitled one asked to be saved)", () => {
  const documents = new DecisionDocuments();
  const first = documents.uri(1, decisionDetail(permission), false);
  const second = documents.uri(2, "--- before\n+++ after\n", true);
  assert.equal(first.scheme, "roundhouse-decision");
  assert.match(first.path, /decision-1\.txt$/);
  assert.match(second.path, /decision-2\.diff$/, "a proposal's change opens as a diff");
  assert.equal(documents.provideTextDocumentContent(first), decisionDetail(permission));
  assert.equal(documents.provideTextDocumentContent(second), "--- before\n+++ after\n");
  assert.match(documents.provideTextDocumentContent(Uri.parse("roundhouse-decision:/decision-9.txt")), /no longer kept/);
});
