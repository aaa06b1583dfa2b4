// The transcript webview's own script (src/model/transcriptHtml.ts), run over a fake DOM (fakeDom.ts) with
// messages from the real TranscriptWindow.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TranscriptModel } from "../../src/model/transcript";
import { TranscriptWindow } from "../../src/model/transcriptView";
import { transcriptPage } from "../../src/model/transcriptHtml";
import { HubEvent } from "../../src/protocol/types";
import { runPage } from "./fakeDom";

function event(seq: number, type: string, data: Record<string, unknown>): HubEvent {
  return { seq, type, at: "2026-01-01T00:00:00Z", actor: "agent:7", task_id: 7, data };
}

test("the page folds a thought under 'Thinking…', shows the plan as a checklist replaced in place, and the usage on one line", () => {
  const page = runPage(transcriptPage({ title: "#7", nonce: "n0nce", cspSource: "vscode-resource:", labels: {} }));
  assert.deepEqual(page.posted, [{ type: "ready" }]);
  const model = new TranscriptModel(7);
  const window = new TranscriptWindow(model, 50);
  model.applyAll([
    event(1, "turn.thought", { turn: 1, text: "First build.\nThen deploy." }),
    event(2, "turn.plan", { turn: 1, entries: [{ content: "Build", status: "in_progress", priority: "high" }, { content: "Deploy", status: "pending", priority: "medium" }] }),
    event(3, "turn.tool_call", { turn: 1, call_id: "c1", tool: "Bash", input: "make" }),
    event(4, "turn.usage", { turn: 1, input_tokens: 1500, output_tokens: 20, cost_usd: 0.003, cost_estimated: true }),
  ]);
  model.takeChanges();
  page.send(window.reset());

  const [thought, plan, tool, usage] = page.items.children;
  assert.equal(page.items.childElementCount, 4);
  assert.equal(thought.tagName, "details");
  assert.equal(thought.open, false, "a thought starts folded");
  assert.equal(thought.children[0].tagName, "summary");
  assert.equal(thought.children[0].textContent, "Thinking…First build.", "the summary says Thinking… with the first line");
  assert.equal(thought.children[1].textContent, "First build.\nThen deploy.");
  assert.equal(plan.children[0].textContent, "Plan · 0/2 done");
  assert.deepEqual(plan.all("li").map((li) => [li.className, li.textContent]), [["in_progress", "◐ Buildhigh"], ["pending", "☐ Deploy"]]);
  assert.equal(usage.textContent, "Usage · 1.5k in · 20 out · $0.0030 (estimated)");

  assert.equal(tool.open, false, "a tool call starts folded");
  tool.open = true; // the user unfolds it; its update keeps it open
  model.applyAll([
    event(5, "turn.tool_output", { turn: 1, call_id: "c1", text: "built\n" }),
    event(6, "turn.plan", { turn: 1, entries: [{ content: "Build", status: "completed", priority: "high" }, { content: "Deploy", status: "in_progress", priority: "low" }] }),
    event(7, "turn.usage", { turn: 1, input_tokens: 500, output_tokens: 30, cost_usd: 0.001, context_tokens: 2000, context_window: 8000 }),
  ]);
  const update = window.changes();
  assert.equal(update?.type, "upsert");
  page.send(update);
  assert.equal(page.items.childElementCount, 4, "the later plan, output and usage replaced theirs, nothing was added");
  const [, newPlan, newTool, newUsage] = page.items.children;
  assert.notEqual(newPlan, plan);
  assert.equal(newPlan.dataset.key, plan.dataset.key);
  assert.equal(newPlan.children[0].textContent, "Plan · 1/2 done");
  assert.deepEqual(newPlan.all("li").map((li) => [li.className, li.textContent, li.title]), [
    ["completed", "☑ Buildhigh", "completed, high priority"],
    ["in_progress", "◐ Deploylow", "in progress, low priority"],
  ]);
  assert.equal(newUsage.textContent, "Usage · 2k in · 50 out · $0.0040 (estimated) · context 25% of 8k");
  assert.notEqual(newTool, tool);
  assert.equal(newTool.open, true, "the tool the user unfolded is still open with its output");
  assert.ok(newTool.textContent.includes("built\n"));
});

test("defect 5: the sticky header is opaque and above the items", () => {
  const html = transcriptPage({ title: "#7", nonce: "n0nce", cspSource: "vscode-resource:", labels: {} });
  const rule = /#state\s*\{([^}]*)\}/.exec(html);
  assert.ok(rule, "a rule for the header");
  const declarations = new Map(rule[1].split(";").map((d) => d.split(":").map((p) => p.trim())).filter((d) => d.length >= 2)
    .map(([name, ...value]) => [name, value.join(":")]));
  assert.equal(declarations.get("position"), "sticky");
  assert.match(declarations.get("background-color") ?? "", /^var\(--vscode-editor-background, /, "the editor's background, with a fallback");
  assert.ok(Number(declarations.get("z-index")) > 0, "above the items (details, pre with overflow)");
  assert.ok(!declarations.has("opacity"), "no opacity: the header would be see-through");
  assert.ok(!/#state[^{]*\{[^}]*\}[\s\S]*#state\s*\{/.test(html), "one rule, not overridden later");
});
