// Gestures on the Roundhouse views the tests share, and scripts for the script driver (docs/drivers/script.md).

/** A turn that streams text, thinks, plans, then asks permission for a shell command before finishing. */
export function asksPermission(command, done = "Deployed.") {
  return JSON.stringify({
    steps: [
      { thought: "A deploy needs a build first." },
      { plan: [{ content: "Build", status: "in_progress", priority: "high" }, "Deploy"] },
      { text: "Stream" }, { text: "ing the deploy" },
      { tool: "Bash", id: "c1", input: { command }, ask: true, output: ["built\n"], result: "done\n" },
      { plan: [{ content: "Build", status: "completed", priority: "high" }, { content: "Deploy", status: "completed" }] },
      { message: done },
      { usage: { input: 1200, output: 80, cost: 0.01, estimated: true, context: 90000, window: 200000 } },
    ],
  });
}

/** A turn that asks the user a question (free text when `options` is empty) and echoes nothing more. */
export function asksQuestion(question, options = []) {
  return JSON.stringify({ steps: [{ ask_user: question, ...(options.length ? { options } : {}) }, { message: "Thanks for the answer." }] });
}

/** A turn of `count` messages, quickly. */
export function chatty(count, prefix = "line") {
  return JSON.stringify({ steps: Array.from({ length: count }, (_, i) => ({ message: `${prefix} ${i}` })) });
}

/** The board row of a task. */
export function taskRow(vscode, task) {
  return vscode.row("Board", new RegExp(`#${task.id} `));
}

/**
 * Whether a board row is drawn: the tree draws only the rows in view and clips the last (a file's tests
 * fill the board), so a task further down is reached through the palette, as a user would.
 */
async function shown(row) {
  return row.waitFor({ timeout: 10000 }).then(() => true, () => false);
}

/** Runs an inline action (a row's hover button) by its accessible name. */
export async function inlineAction(row, name, timeout = undefined) {
  await row.hover({ timeout });
  const button = row.getByRole("button", { name });
  await button.click({ timeout });
}

/** Starts a turn from the board row's inline "Start Turn" with `message`; the transcript opens. */
export async function startTurnFromBoard(vscode, task, message) {
  const row = taskRow(vscode, task);
  if (!(await shown(row) && await inlineAction(row, "Start Turn", 5000).then(() => true, () => false))) {
    await vscode.command("Roundhouse: Start Turn");
    await vscode.pick(`#${task.id} `);
  }
  await vscode.answerInput(message);
  await vscode.transcript().locator("#state").waitFor();
}

/** Opens a task's transcript by clicking its board row (what a user does). */
export async function openTranscriptFromBoard(vscode, task) {
  const row = taskRow(vscode, task);
  if (!(await shown(row) && await row.click({ timeout: 5000 }).then(() => true, () => false))) {
    await vscode.command("Roundhouse: Open Transcript");
    await vscode.pick(`#${task.id} `);
  }
  await vscode.transcript().locator("#state").waitFor();
}

/**
 * A task whose turn (`message`) has ended, its transcript open from the board: returns the task and the
 * transcript's frame.
 */
export async function transcriptOfEndedTurn(hub, vscode, title, message) {
  const task = await fileTask(hub, title);
  await hub.op("turn_start", { task: task.id, message });
  await hub.turnEnded(task.id);
  await vscode.openRoundhouse();
  await openTranscriptFromBoard(vscode, task);
  return { task, transcript: vscode.transcript() };
}

/** A task in a column, filed through the hub (as another face would). */
export function fileTask(hub, title, status = "todo") {
  return hub.op("task_create", { project: "web", title, status });
}

/** Waits until the hub has a pending decision on the task; returns it. */
export async function pendingDecision(hub, task) {
  const [decision] = await hub.until(`a pending decision on #${task.id}`, () => hub.pendingDecisions(task.id), (list) => list.length > 0);
  return decision;
}

/** Waits until the task has no pending decision at the hub. */
export function noPendingDecision(hub, task) {
  return hub.until(`no pending decision on #${task.id}`, () => hub.pendingDecisions(task.id), (list) => list.length === 0);
}

/** A turn that runs until it is stopped. */
export function hangs() {
  return JSON.stringify({ steps: [{ text: "Working" }, { hang: true }] });
}

/**
 * Files a task with "Roundhouse: New Task" from the palette, answering whatever it asks in whichever order:
 * the project, the title, the description (left empty) and, when it asks, the column. Returns what it was
 * asked, in order ("project", "title", "description", "column").
 */
export async function newTaskFromPalette(vscode, title, column) {
  await vscode.command("Roundhouse: New Task");
  const asked = [];
  const widget = vscode.page.locator(".quick-input-widget");
  for (let step = 0; step < 6; step++) {
    const opened = await widget.waitFor({ state: "visible", timeout: 5000 }).then(() => true, () => false);
    if (!opened) {
      break;
    }
    let prompt = await readPrompt(widget);
    if (prompt.kind === undefined) {
      // Between two prompts the widget may show a passing state (an empty list: "0 results"): wait for it to
      // change, then read it again.
      await vscode.page.waitForFunction(
        (seen) => document.querySelector(".quick-input-widget")?.innerText.toLowerCase() !== seen,
        prompt.text, { timeout: 5000 }).catch(() => undefined);
      prompt = await readPrompt(widget);
    }
    const input = widget.locator("input.input");
    if (prompt.kind === "column") {
      asked.push("column");
      await vscode.pick(column);
    } else if (prompt.kind === "project") {
      asked.push("project");
      await vscode.pick("web");
    } else if (prompt.kind === "description") {
      asked.push("description");
      await input.press("Enter");
    } else if (prompt.kind === "title") {
      asked.push("title");
      await input.fill(title);
      await input.press("Enter");
    } else {
      throw new Error(`New Task asked something unexpected: ${prompt.text}`);
    }
    await widget.waitFor({ state: "hidden", timeout: 2000 }).catch(() => undefined);
  }
  return asked;
}

/**
 * What the New Task widget asks now: its text, and which of New Task's prompts it is (undefined: none yet). The
 * input boxes are told by their prompt (or the title's validation message), which only an input box shows: the
 * column pick's own title says "New task in …" too, and before its rows render it must not pass for the title.
 */
async function readPrompt(widget) {
  const text = (await widget.innerText()).toLowerCase();
  const rows = await widget.locator(".monaco-list-row").allInnerTexts();
  const message = (await widget.locator(".quick-input-message").allInnerTexts()).join(" ").toLowerCase();
  const kind = rows.some((r) => /backlog|to do/i.test(r)) ? "column"
    : rows.some((r) => /^web/.test(r.trim())) ? "project"
    : /description/.test(message) ? "description"
    : /title|new task/.test(message) ? "title"
    : undefined;
  return { text, kind };
}

/**
 * The choices a notification offers, as buttons or as links in its message (a prompt that must be closable
 * when the decision closes elsewhere is a progress notification with links), but not its Cancel.
 */
export function choices(notification, label) {
  const all = notification.locator("a, .monaco-button").filter({ hasNotText: /^Cancel$/ });
  return label === undefined ? all : all.filter({ hasText: label });
}
