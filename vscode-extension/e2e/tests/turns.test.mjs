// Turns and decisions in a real VS Code: a turn started from the board streams into its transcript; a
// permission approved from each of the three places (toast, transcript, Needs you) and denied from one; a
// question answered; and defects 1, 3, 4, 5 and 7 of issue 21.
import assert from "node:assert/strict";
import { suite } from "../lib/suite.mjs";
import {
  asksPermission, asksQuestion, chatty, choices, fileTask, inlineAction, noPendingDecision, pendingDecision,
  startTurnFromBoard, transcriptOfEndedTurn,
} from "../lib/flows.mjs";

const e2e = suite();

e2e("a turn started from the board streams into the transcript, and a permission is approved from the transcript", async ({ hub, vscode, shot }) => {
  const task = await fileTask(hub, "Deploy the site");
  await vscode.openRoundhouse();
  await startTurnFromBoard(vscode, task, asksPermission("make deploy"));
  const transcript = vscode.transcript();
  // streamed before the permission: the thought, the plan and the provisional text
  await transcript.locator(".assistant", { hasText: "Streaming the deploy" }).waitFor();
  await transcript.locator(".thought", { hasText: "A deploy needs a build first." }).waitFor();
  await transcript.locator(".plan", { hasText: "Build" }).waitFor();
  const decision = transcript.locator(".decision", { hasText: "make deploy" });
  await decision.waitFor();
  await shot("transcript-permission.png");
  await decision.getByRole("button", { name: "Allow once" }).click();
  await transcript.locator(".assistant", { hasText: "Deployed." }).waitFor();
  await transcript.locator(".usage").waitFor();
  await transcript.locator(".decision", { hasText: "Answered: Allow once" }).waitFor();
  assert.match(await transcript.locator(".tool summary").first().textContent(), /^✓ Bash/);
  await noPendingDecision(hub, task);
  await shot("transcript.png");
});

e2e("a permission is approved from its toast", async ({ hub, vscode, shot }) => {
  const task = await fileTask(hub, "Toast approval");
  await hub.op("turn_start", { task: task.id, message: asksPermission("make toast") });
  const toast = vscode.toasts(`task #${task.id}`);
  await toast.waitFor();
  await shot("toast.png", vscode.page.locator(".notifications-toasts"));
  await choices(toast, "Allow once").first().click();
  await noPendingDecision(hub, task);
  assert.match((await hub.turnEnded(task.id)).status, /completed/i);
});

e2e("a permission is approved from the Needs-you list and another is denied there", async ({ hub, vscode, shot }) => {
  await vscode.openRoundhouse();
  const approved = await fileTask(hub, "Needs-you approval");
  await hub.op("turn_start", { task: approved.id, message: asksPermission("make approve") });
  const row = vscode.row("Needs you", new RegExp(`task #${approved.id}`));
  await row.waitFor();
  await shot("needs-you.png", vscode.page.locator(".part.sidebar"));
  await inlineAction(row, "Approve");
  await noPendingDecision(hub, approved);
  await row.waitFor({ state: "detached" });

  const denied = await fileTask(hub, "Needs-you denial");
  await hub.op("turn_start", { task: denied.id, message: asksPermission("rm -rf build") });
  const deniedRow = vscode.row("Needs you", new RegExp(`task #${denied.id}`));
  await deniedRow.waitFor();
  await inlineAction(deniedRow, "Deny");
  await noPendingDecision(hub, denied);
  assert.deepEqual((await hub.decisions(denied.id)).map((d) => d.answer), ["deny"]);
});

e2e("a question with options is answered from its toast and the answer reaches the transcript", async ({ hub, vscode }) => {
  const task = await fileTask(hub, "Pick a colour");
  await vscode.openRoundhouse();
  await startTurnFromBoard(vscode, task, asksQuestion("Which colour?", ["red", "blue"]));
  const toast = vscode.toasts("Which colour?");
  await toast.waitFor();
  await choices(toast, /^blue$/).first().click();
  await noPendingDecision(hub, task);
  await vscode.transcript().locator(".assistant", { hasText: "Thanks for the answer." }).waitFor();
  await vscode.transcript().locator(".decision", { hasText: "Answered: blue" }).waitFor();
});

e2e("defect 1: a transcript opened from the board reads Live in its header", async ({ hub, vscode, shot }) => {
  const { task, transcript } = await transcriptOfEndedTurn(hub, vscode, "Header state", chatty(3));
  const header = transcript.locator("#state");
  await header.filter({ hasText: /Live/ }).waitFor({ timeout: 20000 });
  assert.match(await header.textContent(), new RegExp(`#${task.id} · Live · \\d+ items`));
});

e2e("defect 3: after a decision is answered elsewhere no prompt for it can be clicked", async ({ hub, vscode }) => {
  const task = await fileTask(hub, "Answered elsewhere");
  await vscode.openRoundhouse();
  await startTurnFromBoard(vscode, task, asksPermission("make elsewhere"));
  const toast = vscode.toasts(`task #${task.id}`);
  await toast.waitFor();
  const row = vscode.row("Needs you", new RegExp(`task #${task.id}`));
  await row.waitFor();
  const decision = await pendingDecision(hub, task);
  await hub.op("decision_answer", { decision: decision.id, answer: "allow_once" });
  await row.waitFor({ state: "detached" });
  await vscode.transcript().locator(".decision", { hasText: "Answered" }).waitFor();
  assert.equal(await vscode.transcript().locator(".decision button").count(), 0, "the transcript still offers buttons");
  await toast.waitFor({ state: "detached", timeout: 10000 });
  const inCentre = await vscode.centre(`task #${task.id}`);
  assert.equal(await choices(inCentre, /Allow once|Deny|Always allow/).count(), 0,
    "the notification centre still offers buttons for a closed decision");
  await vscode.closeCentre();
});

e2e("defect 4: a denied tool call reads as denied after the turn ends", async ({ hub, vscode }) => {
  const task = await fileTask(hub, "Denied tool");
  await vscode.openRoundhouse();
  await startTurnFromBoard(vscode, task, asksPermission("rm -rf /"));
  const decision = vscode.transcript().locator(".decision", { hasText: "rm -rf /" });
  await decision.getByRole("button", { name: "Deny" }).click();
  await noPendingDecision(hub, task);
  await hub.turnEnded(task.id);
  const tool = vscode.transcript().locator(".tool summary", { hasText: "Bash" }).first();
  await tool.filter({ hasText: /denied/i }).waitFor({ timeout: 10000 });
  assert.doesNotMatch(await tool.textContent(), /^…/, "the denied call still reads as pending");
});

e2e("defect 5: the sticky transcript header is opaque, so text does not show through it", async ({ hub, vscode }) => {
  const { transcript } = await transcriptOfEndedTurn(hub, vscode, "Long transcript", chatty(80, "a long line of the transcript"));
  await transcript.locator(".assistant", { hasText: "line of the transcript 79" }).waitFor();
  const look = await transcript.locator("#state").evaluate((header) => {
    let opacity = 1;
    for (let e = header; e; e = e.parentElement) {
      opacity *= Number(getComputedStyle(e).opacity);
    }
    return { opacity, background: getComputedStyle(header).backgroundColor, position: getComputedStyle(header).position };
  });
  assert.equal(look.position, "sticky");
  assert.equal(look.opacity, 1, `the header is see-through: ${JSON.stringify(look)}`);
  assert.doesNotMatch(look.background, /rgba\(.*,\s*0(\.\d+)?\)|transparent/, `the header's background is see-through: ${JSON.stringify(look)}`);
});

e2e("defect 7: a free-text question does not take the focus; it opens its input when the user chooses to answer", async ({ hub, vscode }) => {
  const task = await fileTask(hub, "Free text");
  await vscode.openRoundhouse();
  await hub.op("turn_start", { task: task.id, message: asksQuestion("What should the release be called?") });
  const row = vscode.row("Needs you", new RegExp(`task #${task.id}`));
  await row.waitFor();
  const toast = vscode.toasts("What should the release be called?");
  await toast.waitFor();
  assert.equal(await vscode.quickInput.count(), 0, "an input box opened by itself");
  await choices(toast).first().click();
  await vscode.answerInput("Roundhouse 1.0");
  await noPendingDecision(hub, task);
  assert.deepEqual((await hub.decisions(task.id)).map((d) => d.answer), ["Roundhouse 1.0"]);
});
