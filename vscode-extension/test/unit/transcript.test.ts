import { test } from "node:test";
import assert from "node:assert/strict";
import { TranscriptModel, ToolItem, DecisionItem, AssistantItem, PlanItem, ThoughtItem, UsageItem, compactCount } from "../../src/model/transcript";
import { TranscriptSession } from "../../src/model/transcriptSession";
import { TranscriptWindow, isFromWebview } from "../../src/model/transcriptView";
import { RoundhouseApi } from "../../src/protocol/api";
import { HubEvent } from "../../src/protocol/types";
import { FakeBridge, until } from "./fakeBridge";

function event(seq: number, type: string, data: Record<string, unknown>, task = 7): HubEvent {
  return { seq, type, at: "2026-01-01T00:00:00Z", actor: "agent:7", task_id: task, data };
}

test("text deltas build provisional text that the stored message replaces, in place", () => {
  const model = new TranscriptModel(7);
  model.apply(event(1, "turn.user_message", { turn: 1, text: "deploy" }));
  model.apply(event(0, "turn.text_delta", { turn: 1, text: "Deploy" }));
  model.apply(event(0, "turn.text_delta", { turn: 1, text: "ing" }));
  const draft = model.items[1] as AssistantItem;
  assert.equal(draft.text, "Deploying");
  assert.equal(draft.provisional, true);
  model.apply(event(2, "turn.message", { turn: 1, text: "Deploying now." }));
  assert.equal(model.size, 2, "the message replaced the draft instead of adding a line");
  assert.equal((model.items[1] as AssistantItem).text, "Deploying now.");
  assert.equal((model.items[1] as AssistantItem).provisional, false);
});

test("a replay overlapping what the model has adds nothing twice (resume by seq)", () => {
  const model = new TranscriptModel(7);
  const events = [
    event(1, "turn.started", { turn: 1, driver: "script" }),
    event(2, "turn.tool_call", { turn: 1, call_id: "c1", tool: "Bash", input: { command: "ls" } }),
    event(3, "turn.tool_output", { turn: 1, call_id: "c1", text: "a\n" }),
    event(4, "turn.tool_result", { turn: 1, call_id: "c1", output: "a\n", is_error: false }),
    event(5, "turn.ended", { turn: 1, status: "completed" }),
  ];
  model.applyAll(events.slice(0, 3));
  assert.equal(model.lastSeq, 3);
  assert.equal(model.applyAll(events), 2, "only seq 4 and 5 are new");
  assert.equal(model.size, 3, "start marker, one folded tool, end marker");
  const tool = model.items[1] as ToolItem;
  assert.equal(tool.output, "a\n", "the output was not appended twice");
  assert.equal(tool.done, true);
  assert.equal(model.apply(event(5, "turn.ended", { turn: 1, status: "completed" })), false);
  assert.equal(model.apply(event(9, "turn.message", { turn: 1, text: "other task" }, 8)), false, "another task's event is ignored");
});

test("a permission is one line, from either event, and shows its answer when closed", () => {
  const model = new TranscriptModel(7);
  model.apply(event(1, "turn.permission_requested", { turn: 1, decision: 12, tool: "Bash", command: "make deploy" }));
  model.apply(event(2, "decision.opened", { decision: { id: 12, kind: "permission", title: "Bash", options: ["allow_once", "allow_always", "deny"] } }));
  assert.equal(model.size, 1);
  const item = model.items[0] as DecisionItem;
  assert.equal(item.status, "pending");
  assert.deepEqual(item.options, ["allow_once", "allow_always", "deny"]);
  model.apply(event(3, "decision.answered", { decision: { id: 12, status: "answered", answer: "allow_once" } }));
  assert.equal(item.status, "answered");
  assert.equal(item.answer, "allow_once");
});

test("thoughts, a turn's plan and its usage are lines in event order; a later plan and usage update theirs in place", () => {
  const model = new TranscriptModel(7);
  model.applyAll([
    event(1, "turn.started", { turn: 1, driver: "claude" }),
    event(2, "turn.thought", { turn: 1, text: "The deploy needs a build first.\nThen the tests." }),
    event(3, "turn.plan", { turn: 1, entries: [
      { content: "Build", status: "in_progress", priority: "high" },
      { content: "Deploy", status: "pending", priority: "medium" },
    ] }),
    event(4, "turn.tool_call", { turn: 1, call_id: "c1", tool: "Bash", input: { command: "make" } }),
    event(5, "turn.usage", { turn: 1, input_tokens: 1200, output_tokens: 80, cost_usd: 0.01, cost_estimated: true, context_tokens: 1200, context_window: 200000 }),
  ]);
  const plan = model.items[2] as PlanItem;
  const usage = model.items[4] as UsageItem;
  model.takeChanges();

  model.applyAll([
    event(6, "turn.tool_result", { turn: 1, call_id: "c1", output: "ok", is_error: false }),
    event(7, "turn.plan", { turn: 1, entries: [
      { content: "Build", status: "completed", priority: "high" },
      { content: "Deploy", status: "in_progress", priority: "medium" },
      { content: "Tell the team", status: "bogus" },
    ] }),
    event(8, "turn.thought", { turn: 1, text: "Build passed." }),
    event(9, "turn.message", { turn: 1, text: "Deployed." }),
    event(10, "turn.usage", { turn: 1, input_tokens: 3000, output_tokens: 420, cost_usd: 0.02, cost_estimated: false, context_tokens: 90000, context_window: 200000 }),
    event(11, "turn.usage", { turn: 1, input_tokens: 10, output_tokens: 5 }),
    event(12, "turn.ended", { turn: 1, status: "completed" }),
  ]);
  assert.deepEqual(model.items.map((i) => i.kind), ["marker", "thought", "plan", "tool", "usage", "thought", "assistant", "marker"]);
  assert.equal(model.items[2], plan, "the later plan replaced the entries of the same item, in place");
  assert.deepEqual(plan.entries, [
    { content: "Build", status: "completed", priority: "high" },
    { content: "Deploy", status: "in_progress", priority: "medium" },
    { content: "Tell the team", status: "pending", priority: "medium" },
  ], "an unknown status reads as pending, a missing priority as medium");
  assert.equal((model.items[1] as ThoughtItem).text, "The deploy needs a build first.\nThen the tests.");
  assert.equal(model.items[4], usage, "one usage line per turn");
  assert.deepEqual([usage.inputTokens, usage.outputTokens, usage.contextTokens], [4210, 505, 90000], "tokens summed, context as last reported");
  assert.equal(usage.costUsd?.toFixed(2), "0.03");
  assert.equal(usage.text, "4.2k in · 505 out · $0.0300 (estimated) · context 45% of 200k", "any estimated part marks the cost estimated");
  const changed = model.takeChanges();
  assert.ok(changed.keys.has(plan.key) && changed.keys.has(usage.key), "the view is told to re-render both");

  model.apply(event(13, "turn.plan", { turn: 2, entries: ["Follow up"] }));
  model.apply(event(14, "turn.usage", { turn: 2, input_tokens: 50, output_tokens: 7 }));
  assert.equal(model.size, 10, "a new turn has its own plan and usage");
  assert.deepEqual((model.items[8] as PlanItem).entries, [{ content: "Follow up", status: "pending", priority: "medium" }]);
  assert.equal((model.items[9] as UsageItem).text, "50 in · 7 out", "no cost or context when none was reported");
  assert.equal(model.apply(event(7, "turn.plan", { turn: 1, entries: [] })), false, "a replayed plan changes nothing");
  assert.equal(plan.entries.length, 3);
  assert.deepEqual([999, 1000, 12345, 999_499, 999_500, 2_345_678].map(compactCount), ["999", "1k", "12.3k", "999k", "1M", "2.3M"]);
});

test("the view's window holds the newest items, grows on 'show earlier', and sends only changed items", () => {
  const model = new TranscriptModel(7);
  for (let seq = 1; seq <= 1000; seq++) {
    model.apply(event(seq, "turn.message", { turn: seq, text: `line ${seq}` }));
  }
  const window = new TranscriptWindow(model, 100);
  const first = window.reset();
  assert.equal(first.type, "reset");
  assert.equal(first.type === "reset" ? first.items.length : 0, 100, "a long transcript renders 100 items, not 1000");
  assert.equal(first.type === "reset" ? first.start : -1, 900);
  const grown = window.showEarlier();
  assert.equal(grown.type === "reset" ? grown.items.length : 0, 200);
  model.takeChanges();
  model.apply(event(0, "turn.text_delta", { turn: 1001, text: "typing" }));
  const update = window.changes();
  assert.equal(update?.type, "upsert");
  assert.deepEqual(update?.type === "upsert" ? update.items.map((i) => i.kind) : [], ["assistant"]);
  assert.equal(window.changes(), undefined, "nothing changed since");
  assert.equal(isFromWebview({ type: "answer", decision: 3, option: "deny" }), true);
  assert.equal(isFromWebview({ type: "answer", decision: "3" }), false, "a malformed webview message is refused");
});

test("a session reads the transcript a page at a time, then watches from the last seq read", async () => {
  const bridge = new FakeBridge();
  for (let i = 0; i < 1200; i++) {
    bridge.store("turn.message", { turn: 1, text: `m${i}` });
  }
  const api = new RoundhouseApi(bridge);
  let changes = 0;
  const session = new TranscriptSession(api, 7, { pageSize: 500, onChange: () => changes++ });
  await session.open();
  assert.equal(session.pages, 3, "1200 entries in pages of 500");
  assert.equal(session.model.size, 1200);
  assert.equal(session.state, "live");
  const watch = bridge.requests.find((r) => r.method === "roundhouse/watchTask");
  assert.deepEqual(watch?.params, { task: 7, after: 1200 }, "watching resumes after the last page");
  assert.ok(changes >= 3);

  bridge.push("roundhouse/taskEvent", bridge.store("turn.ended", { turn: 1, status: "completed" }));
  assert.equal(session.model.size, 1201);
  session.dispose();
  assert.ok(bridge.requests.some((r) => r.method === "roundhouse/unwatchTask"));
});

test("after a bridge restart the session reads what it missed and watches again, with no line twice", async () => {
  const bridge = new FakeBridge();
  bridge.store("turn.user_message", { turn: 1, text: "hi" });
  bridge.store("turn.message", { turn: 1, text: "hello" });
  const api = new RoundhouseApi(bridge);
  const session = new TranscriptSession(api, 7, { pageSize: 500, onChange: () => undefined });
  await session.open();
  bridge.push("roundhouse/taskConnection", { task: 7, state: "lost", last_seq: 2, reason: "bridge gone" });
  assert.equal(session.state, "lost");

  // Meanwhile the turn went on.
  bridge.store("turn.message", { turn: 1, text: "still here" });
  bridge.store("turn.ended", { turn: 1, status: "completed" });
  await session.reconnect();
  await until("the new lines", () => session.model.size === 4);
  const watches = bridge.requests.filter((r) => r.method === "roundhouse/watchTask");
  assert.deepEqual(watches.map((w) => w.params.after), [2, 4]);
  // The replay the fake bridge sends after each watch overlaps nothing we have: still four lines.
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.deepEqual(session.model.items.map((i) => i.kind), ["user", "assistant", "assistant", "marker"]);
  assert.equal(session.state, "live");
  session.dispose();
});

test("unattended refusals, a trimmed context and a pruned transcript each show as a marker", () => {
  const model = new TranscriptModel(7);
  model.apply(event(1, "turn.question_refused", { turn: 1, question: "Which branch?", options: [] }));
  model.apply(event(2, "turn.drift_refused", { turn: 1, driver: "claude", files: [".claude/settings.json"] }));
  model.apply(event(3, "turn.context_trimmed", { turn: 1, text: "Left the 3 oldest exchanges out" }));
  model.apply(event(4, "task.pruned", { events: 120, bytes: 5000, first_seq: 1, last_seq: 300, days: 30 }));
  model.apply(event(5, "turn.endpoint_silent", { turn: 1, silent_seconds: 45, ends_in_seconds: 135, text: "codex has had no answer from its model for 45 s" }));
  const texts = model.items.map((item) => (item as { text?: string }).text);
  assert.deepEqual(texts, [
    'Unattended: the agent asked "Which branch?" and no one is there to answer',
    "Unattended: settings drift refused (.claude/settings.json)",
    "Left the 3 oldest exchanges out",
    "Transcript pruned by the retention policy: 120 events removed",
    "codex has had no answer from its model for 45 s",
  ]);
});
