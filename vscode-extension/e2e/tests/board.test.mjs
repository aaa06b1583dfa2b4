// The board and the Needs-you list in a real VS Code: rendering, keyboard-only use with accessible names,
// and defects 8 and 9 of issue 21.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "../lib/suite.mjs";
import { asksPermission, fileTask, hangs, newTaskFromPalette, noPendingDecision, pendingDecision, taskRow } from "../lib/flows.mjs";

const e2e = suite();

e2e("the board renders the hub's projects, columns and tasks", async ({ hub, vscode, shot }) => {
  const task = await fileTask(hub, "Write the changelog");
  await vscode.openRoundhouse();
  await vscode.row("Board", /^web/).waitFor();
  await vscode.row("Board", /^To do/).waitFor();
  await taskRow(vscode, task).waitFor();
  assert.equal(await vscode.row("Board", /^web/).getAttribute("aria-expanded"), "true");
  await shot("board.png", vscode.page.locator(".part.sidebar"));
});

e2e("defect 9a: an empty Needs-you list says that nothing needs you", async ({ hub, vscode }) => {
  assert.deepEqual(await hub.pendingDecisions(), []);
  await vscode.openRoundhouse();
  await vscode.view("Needs you").getByText(/Nothing needs you/i).waitFor({ timeout: 10000 });
});

e2e("the board and Needs you work with the keyboard alone, and every row has an accessible name", async ({ hub, vscode, page }) => {
  const task = await fileTask(hub, "Keyboard only");
  await vscode.openRoundhouse();
  await taskRow(vscode, task).waitFor();
  // the board: focus it, walk down to the task, open its transcript with Enter
  await vscode.command("Roundhouse: Focus on Board View");
  const focusedRow = vscode.view("Board").locator(".monaco-list-row.focused");
  for (let i = 0; i < 30 && !new RegExp(`#${task.id} `).test(await focusedRow.innerText().catch(() => "")); i++) {
    await page.keyboard.press("ArrowDown");
  }
  assert.match(await focusedRow.innerText(), new RegExp(`#${task.id} Keyboard only`));
  assert.match(await focusedRow.getAttribute("aria-label"), /Keyboard only/);
  await page.keyboard.press("Enter");
  await vscode.transcript().locator("#state").waitFor();
  for (const label of await vscode.view("Board").getByRole("treeitem").evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-label")))) {
    assert.match(label ?? "", /^\S/, `a board row has no accessible name: ${JSON.stringify(label)}`);
  }
  // Needs you: a permission, reached and approved with the keyboard
  await hub.op("turn_start", { task: task.id, message: asksPermission("make keyboard") });
  await pendingDecision(hub, task);
  await vscode.row("Needs you", new RegExp(`task #${task.id}`)).waitFor();
  await vscode.clearNotifications();
  await vscode.command("Roundhouse: Focus on Needs you View");
  const focusedDecision = vscode.view("Needs you").locator(".monaco-list-row.focused");
  for (let i = 0; i < 10 && !new RegExp(`task #${task.id}`).test(await focusedDecision.innerText({ timeout: 2000 }).catch(() => "")); i++) {
    await page.keyboard.press("ArrowDown");
  }
  assert.match(await focusedDecision.innerText(), new RegExp(`task #${task.id}`));
  await page.keyboard.press("Enter");
  await vscode.quickInput.locator(".monaco-list-row", { hasText: "Allow once" }).waitFor();
  await page.keyboard.type("Allow once");
  await page.keyboard.press("Enter");
  await noPendingDecision(hub, task);
  assert.deepEqual((await hub.decisions(task.id)).map((d) => d.answer), ["allow_once"]);
});

e2e("defect 8: a Needs-you row for a decision without a message has an accessible name", async ({ hub, vscode }) => {
  const task = await fileTask(hub, "No message");
  await vscode.openRoundhouse();
  await hub.op("turn_start", { task: task.id, message: asksPermission("make quiet") });
  const decision = await pendingDecision(hub, task);
  const row = vscode.row("Needs you", `task #${task.id}:`);
  await row.waitFor();
  const label = await row.getAttribute("aria-label");
  assert.ok(label && label.includes(`task #${task.id}`) && !label.startsWith(","),
    `the Needs-you row of decision ${decision.id} (message ${JSON.stringify(decision.message)}) is named ${JSON.stringify(label)}`);
  await hub.op("decision_answer", { decision: decision.id, answer: "deny" });
  await noPendingDecision(hub, task);
});

e2e("defect 9b and 9c: New Task asks for a column, and the new task shows on the board at once", async ({ hub, vscode, shot }) => {
  await vscode.openRoundhouse();
  const asked = await newTaskFromPalette(vscode, "Filed from the palette", "Backlog");
  assert.ok(asked.includes("column"), `New Task asked for ${asked.join(", ")} but never for a column`);
  const [task] = await hub.until("the new task at the hub", async () => (await hub.op("task_list", { project: "web" })).tasks.filter((t) => t.title === "Filed from the palette"), (l) => l.length === 1);
  assert.equal(task.status, "backlog");
  await taskRow(vscode, task).waitFor({ timeout: 10000 });
  assert.ok(await taskRow(vscode, task).isVisible(), "the new task is hidden in a collapsed column");
});

e2e("defect 9d: a task with a running turn shows it is running on its row", async ({ hub, vscode }) => {
  const task = await fileTask(hub, "Running in To do");
  await vscode.openRoundhouse();
  await taskRow(vscode, task).waitFor();
  await hub.op("turn_start", { task: task.id, message: hangs() });
  try {
    await taskRow(vscode, task).filter({ hasText: /running/i }).waitFor({ timeout: 10000 }).catch(async () => {
      throw new Error(`the row of #${task.id} does not say it is running: ${await taskRow(vscode, task).getAttribute("aria-label")}`);
    });
    await vscode.command("Roundhouse: Refresh");
    await taskRow(vscode, task).filter({ hasText: /running/i }).waitFor({ timeout: 10000 });
  } finally {
    await hub.op("turn_stop", { task: task.id });
    await hub.turnEnded(task.id);
  }
});

e2e("Open Terminal in Task: a hub shell in the task's folder with its PORT and size, hung up when the terminal is killed", async ({ hub, vscode, page }) => {
  const task = await fileTask(hub, "Terminal work");
  const { port } = await hub.op("service_list", { project: "web" });
  await vscode.openRoundhouse();
  await taskRow(vscode, task).waitFor();
  await vscode.command("Roundhouse: Open Terminal in Task");
  await vscode.pick(`#${task.id} `);
  const terminal = page.locator(".terminal-wrapper.active .xterm");
  await terminal.waitFor();
  await terminal.click();
  const out = join(hub.projectDir, `terminal-${task.id}.txt`);
  await page.keyboard.type(`echo "$$ $PORT $(stty size) $PWD" > ${out}\n`);
  const line = await hub.until("the shell's line in " + out, () => (existsSync(out) ? readFileSync(out, "utf8") : ""), (text) => text.endsWith("\n"), 60000);
  const [shell, shellPort, rows, columns, cwd] = line.trim().split(" ");
  assert.equal(Number(shellPort), port, "the terminal's PORT is the project's");
  assert.equal(cwd, hub.projectDir, "the shell runs in the task's folder (the project is no git repository)");
  assert.ok(Number(rows) >= 5 && Number(columns) >= 20, `the PTY has the panel's size, not a default: ${rows}x${columns}`);
  assert.ok(existsSync(`/proc/${shell}`), "the shell runs until the terminal closes");
  await vscode.command("Terminal: Kill the Active Terminal Instance");
  await hub.until(`the hub's shell ${shell} to be hung up`, () => existsSync(`/proc/${shell}`), (alive) => !alive, 30000);
});

e2e("a window reload keeps a hub terminal's shell: it detaches, and the reloaded window reattaches it", async ({ hub, vscode, page }) => {
  const task = await fileTask(hub, "Terminal across a reload");
  await vscode.openRoundhouse();
  await taskRow(vscode, task).waitFor();
  await vscode.command("Roundhouse: Open Terminal in Task");
  await vscode.pick(`#${task.id} `);
  await page.locator(".terminal-wrapper.active .xterm").click();
  const before = join(hub.projectDir, `reload-${task.id}-before.txt`);
  await page.keyboard.type(`echo $$ > ${before}\n`);
  const shell = (await hub.until("the shell's pid in " + before, () => (existsSync(before) ? readFileSync(before, "utf8") : ""), (text) => text.endsWith("\n"), 60000)).trim();

  const reloaded = page.waitForEvent("load", { timeout: 120000 });
  await vscode.command("Developer: Reload Window");
  await reloaded;
  await page.locator(".monaco-workbench").waitFor({ timeout: 120000 });
  await vscode.openRoundhouse(120000);
  assert.ok(existsSync(`/proc/${shell}`), "the shell was hung up by the reload");

  await vscode.command("Terminal: Focus Terminal");
  const tab = page.locator(".terminal-tabs-entry", { hasText: `Roundhouse #${task.id}` });
  if (await tab.count() > 0) {
    await tab.first().click(); // other terminals are open: pick this one
  }
  await page.locator(".terminal-wrapper.active .xterm").click();
  const after = join(hub.projectDir, `reload-${task.id}-after.txt`);
  await page.keyboard.type(`echo $$ > ${after}\n`);
  const again = (await hub.until("the reattached shell's pid in " + after, () => (existsSync(after) ? readFileSync(after, "utf8") : ""), (text) => text.endsWith("\n"), 60000)).trim();
  const what = (pid) => (existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ") : "gone");
  assert.equal(again, shell, `the reloaded window's terminal is the same shell (${what(shell)}), not ${what(again)}`);
  await vscode.command("Terminal: Kill the Active Terminal Instance");
  await hub.until(`the hub's shell ${shell} to be hung up`, () => existsSync(`/proc/${shell}`), (alive) => !alive, 30000);
});
