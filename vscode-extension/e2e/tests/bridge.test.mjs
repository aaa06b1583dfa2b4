// The bridge process (roundhouse lsp) restarted and failing, in a real VS Code: defects 2 and 6 of issue 21.
import assert from "node:assert/strict";
import { Hub } from "../lib/hub.mjs";
import { suite } from "../lib/suite.mjs";
import { chatty, taskRow, transcriptOfEndedTurn } from "../lib/flows.mjs";

const e2e = suite();

/**
 * The notifications about the bridge in the notification centre: the extension's own (a progress
 * notification, the one kind an extension can close, so not an error icon) and any the language client pops
 * by itself ("Couldn't create connection to server", "Pending response rejected").
 */
async function bridgeNotices(vscode) {
  const rows = await vscode.centre(/roundhouse lsp|bridge|connection|Pending response/i);
  return rows.allInnerTexts();
}

e2e("defect 2: Restart the Bridge keeps an open transcript live", async ({ hub, vscode }) => {
  const { task, transcript } = await transcriptOfEndedTurn(hub, vscode, "Across a restart", chatty(2, "before"));
  await transcript.locator(".assistant", { hasText: "before 1" }).waitFor();
  await vscode.command("Roundhouse: Restart the Bridge (roundhouse lsp)");
  await taskRow(vscode, task).waitFor();
  await hub.op("turn_start", { task: task.id, message: chatty(2, "after") });
  await hub.turnEnded(task.id);
  await transcript.locator(".assistant", { hasText: "after 1" }).waitFor({ timeout: 120000 }).catch(async () => {
    throw new Error(`the open transcript stopped after the restart; its header reads ${JSON.stringify(await transcript.locator("#state").textContent())}`);
  });
  assert.doesNotMatch(await transcript.locator("#state").textContent(), /Could not resume/);
  assert.equal(await transcript.locator(".assistant", { hasText: "before 1" }).count(), 1, "a line shows twice after the restart");
});

e2e("defect 6: a failed bridge start shows one error, and none stays once the bridge is back", async ({ hub, vscode }) => {
  await vscode.openRoundhouse();
  hub.refuseBridge(true);
  try {
    await vscode.command("Roundhouse: Restart the Bridge (roundhouse lsp)");
    await vscode.toasts().filter({ hasText: /stopped/ }).first().waitFor({ timeout: 90000 });
  } finally {
    hub.refuseBridge(false);
  }
  const failed = await bridgeNotices(vscode);
  assert.equal(failed.length, 1, `one failed start shows ${failed.length} notices: ${JSON.stringify(failed)}`);
  assert.match(failed[0], /roundhouse\.server\.command/, "the notice says what to check");
  await vscode.closeCentre();
  await vscode.command("Roundhouse: Restart the Bridge (roundhouse lsp)");
  await vscode.view("Board").getByRole("treeitem", { name: /^Project web/ }).waitFor();
  // The new bridge takes a JVM start; its notice goes once it runs.
  await hub.until("the notice of the failed start to go", () => bridgeNotices(vscode), (left) => left.length === 0, 120000)
    .catch(async (error) => {
      throw new Error(`notices of the failed start stay after the bridge is back: ${JSON.stringify(await bridgeNotices(vscode))} (${error.message})`);
    });
  await vscode.closeCentre();
});

e2e("Sign in to Hub shows a remote hub's board over its WebSocket; Start Local Hub brings the local one back", async ({ vscode }) => {
  const remote = await Hub.start({ project: "api" });
  try {
    await vscode.openRoundhouse();
    await vscode.row("Board", /^web/).waitFor();
    await vscode.command("Roundhouse: Sign in to Hub");
    await vscode.answerInput(remote.url);
    // the same input widget asks again: wait for the second step, or the token lands in the first
    await vscode.quickInput.locator(".quick-input-title", { hasText: "(2/2)" }).waitFor();
    await vscode.answerInput(remote.token);
    await vscode.row("Board", /^api/).waitFor({ timeout: 120000 });
    assert.equal(await vscode.row("Board", /^web/).count(), 0, "the local hub's project still shows beside the remote one's");
    await vscode.command("Roundhouse: Start Local Hub");
    await vscode.row("Board", /^web/).waitFor({ timeout: 120000 });
    assert.equal(await vscode.row("Board", /^api/).count(), 0, "the remote hub's project stays after Start Local Hub");
  } finally {
    await remote.stop();
  }
});
