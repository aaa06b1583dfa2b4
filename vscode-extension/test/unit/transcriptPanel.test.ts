// The transcript panel (src/views/transcriptPanel.ts) with its real page script over the fake DOM, a fake
// webview panel (fakePanel.ts) and the fake bridge: what the user sees in the header and the list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TranscriptPanel } from "../../src/views/transcriptPanel";
import { PromptAction } from "../../src/model/decisions";
import { RoundhouseApi } from "../../src/protocol/api";
import { FakeBridge, until } from "./fakeBridge";
import { fakePanel } from "./fakePanel";

const settings = { pageSize: 500, window: 200 };

function transcript(bridge: FakeBridge) {
  const webview = fakePanel();
  const answers: ({ decision: number } & PromptAction)[] = [];
  const panel = new TranscriptPanel(webview.panel, new RoundhouseApi(bridge), 7, settings, (decision, action) => {
    answers.push({ decision, ...action });
    return Promise.resolve();
  }, () => undefined);
  return { webview, panel, answers };
}

test("defect 1: the header reads Live with the item count even when the webview loads after the transcript was read", async () => {
  const bridge = new FakeBridge();
  bridge.store("turn.user_message", { turn: 1, text: "deploy" });
  bridge.store("turn.message", { turn: 1, text: "Deploying." });
  const { webview, panel } = transcript(bridge);
  await panel.open();
  assert.equal(panel.session.state, "live");
  assert.equal(webview.lost.length, 0, "nothing was posted to a webview that was not listening");

  const page = webview.load();
  await until("the header", () => page.state.textContent === "#7 · Live · 2 items");
  assert.deepEqual(page.items.children.map((c) => c.textContent), ["deploy", "Deploying."]);

  bridge.push("roundhouse/taskEvent", bridge.store("turn.ended", { turn: 1, status: "completed" }));
  await until("the new line and its count", () => page.state.textContent === "#7 · Live · 3 items" && page.items.childElementCount === 3);
  panel.dispose();
});

test("defect 1: a webview that is ready before the transcript is read sees Loading…, then Live", async () => {
  const bridge = new FakeBridge();
  bridge.store("turn.user_message", { turn: 1, text: "hi" });
  const { webview, panel } = transcript(bridge);
  const page = webview.load();
  await until("the handshake", () => page.posted.length === 1);
  await until("the loading header", () => page.state.textContent === "#7 · Loading… · 0 items");
  await panel.open();
  await until("the live header and the line", () => page.state.textContent === "#7 · Live · 1 items" && page.items.childElementCount === 1);

  // A webview that reloads says ready again and gets everything again.
  const again = webview.load();
  await until("the reloaded page", () => again.state.textContent === "#7 · Live · 1 items" && again.items.childElementCount === 1);
  panel.dispose();
});

test("defect 2: after Restart the Bridge an open transcript follows the new client: it reads what it missed and stays live", async () => {
  const first = new FakeBridge();
  first.store("turn.user_message", { turn: 1, text: "hi" });
  const { webview, panel } = transcript(first);
  const page = webview.load();
  await panel.open();
  await until("the first line", () => page.items.childElementCount === 1);

  const second = first.restart();
  second.store("turn.message", { turn: 1, text: "said while the bridge restarted" });
  await panel.reconnect(new RoundhouseApi(second));
  await until("the missed line, live", () => page.state.textContent === "#7 · Live · 2 items" && page.items.childElementCount === 2);
  assert.deepEqual(second.requests.filter((r) => r.method === "roundhouse/watchTask").map((r) => r.params), [{ task: 7, after: 2 }]);

  second.push("roundhouse/taskEvent", second.store("turn.ended", { turn: 1, status: "completed" }));
  await until("a new event from the new client", () => page.items.childElementCount === 3);
  first.push("roundhouse/taskEvent", { ...second.log[2], seq: 99 });
  assert.equal(panel.session.model.size, 3, "the old client's notifications are not followed any more");
  panel.dispose();
  assert.ok(second.requests.some((r) => r.method === "roundhouse/unwatchTask"), "closing unwatches on the new client");
});

test("defect 2: resuming on a client that is gone says so in the header", async () => {
  const bridge = new FakeBridge();
  const { webview, panel } = transcript(bridge);
  const page = webview.load();
  await panel.open();
  bridge.stopped = true;
  await panel.reconnect();
  await until("the sentence", () => page.state.textContent === "#7 · Could not resume: Client is not running · 0 items");
  panel.dispose();
});

test("defect 3: a decision closed elsewhere stops offering buttons in the transcript at once", async () => {
  const bridge = new FakeBridge();
  bridge.store("turn.permission_requested", { turn: 1, decision: 12, call_id: "c1", tool: "Bash", command: "make deploy" });
  const { webview, panel, answers } = transcript(bridge);
  const page = webview.load();
  await panel.open();
  await until("the permission's buttons", () => page.items.all("button").length === 3);
  page.items.all("button")[0].click();
  await until("the click reaches the extension", () => answers.length === 1);
  assert.deepEqual(answers[0], { decision: 12, option: "allow_once" });

  // roundhouse/decisionClosed comes before (or instead of) the stored decision.answered on the task.
  panel.decisionClosed({ decision: 12, status: "answered", answer: "deny" });
  await until("the buttons gone", () => page.items.all("button").length === 0);
  assert.match(page.items.textContent, /Answered: Deny/);
  panel.decisionClosed({ decision: 12, status: "answered", answer: "deny" });
  panel.dispose();
});

test("defect 4: a denied tool call reads as denied, not pending, and a call the ended turn left reads as without result", async () => {
  const bridge = new FakeBridge();
  bridge.store("turn.tool_call", { turn: 1, call_id: "c1", tool: "Bash", input: "rm -rf build" });
  bridge.store("turn.permission_requested", { turn: 1, decision: 12, call_id: "c1", tool: "Bash", command: "rm -rf build" });
  bridge.store("decision.answered", { decision: { id: 12, status: "answered", answer: "deny" } });
  bridge.store("turn.permission_denied", { turn: 1, call_id: "c1", tool: "Bash", reason: "denied by user" });
  bridge.store("turn.tool_call", { turn: 1, call_id: "c2", tool: "Read", input: "notes.md" });
  bridge.store("turn.ended", { turn: 1, status: "cancelled" });
  const { webview, panel } = transcript(bridge);
  const page = webview.load();
  await panel.open();
  await until("the transcript", () => page.items.all("summary").length === 2);
  const [denied, left] = page.items.all("details");
  assert.equal(denied.className, "item tool denied");
  assert.equal(denied.children[0].textContent, "⊘ Bash (denied)  rm -rf build");
  assert.equal(denied.children[1].textContent, "Denied: denied by user");
  assert.equal(left.className, "item tool interrupted");
  assert.equal(left.children[0].textContent, "– Read (no result: the turn ended)  notes.md");
  assert.ok(!page.items.all("summary").some((s) => s.textContent.startsWith("…")), "nothing reads as pending");
  panel.dispose();
});

test("defect 7: a question in the transcript offers Answer…, which asks the extension for the input box", async () => {
  const bridge = new FakeBridge();
  bridge.store("decision.opened", { decision: { id: 14, kind: "question", title: "Which database?", message: "Postgres or SQLite?", options: [] } });
  const { webview, panel, answers } = transcript(bridge);
  const page = webview.load();
  await panel.open();
  await until("the question's button", () => page.items.all("button").length === 1);
  assert.equal(page.items.all("button")[0].textContent, "Answer…");
  assert.deepEqual(answers, [], "nothing opens by itself");
  page.items.all("button")[0].click();
  await until("the click", () => answers.length === 1);
  assert.deepEqual(answers[0], { decision: 14, text: true });
  panel.dispose();
});
