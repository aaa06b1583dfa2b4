// The transcript webview's page: static HTML and a small script that renders the items it is sent, keyed
// so an update replaces one element (a plan's new version, a tool's output) and the DOM never holds more
// than the window. Thoughts and tools start folded. No vscode here.

export interface PageOptions {
  readonly title: string;
  readonly nonce: string;
  readonly cspSource: string;
  readonly labels: Readonly<Record<string, string>>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

export function transcriptPage(options: PageOptions): string {
  const labels = JSON.stringify(options.labels).replace(/</g, "\\u003c");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${options.cspSource} 'nonce-${options.nonce}'; script-src 'nonce-${options.nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(options.title)}</title>
<style nonce="${options.nonce}">
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 12px; }
  /* The header is opaque (no opacity: it would show the text scrolling under it) and above the items. */
  #state { position: sticky; top: 0; z-index: 10; margin: 0 -12px; padding: 4px 12px; background-color: var(--vscode-editor-background, var(--vscode-sideBar-background, #1e1e1e)); color: var(--vscode-descriptionForeground); border-bottom: 1px solid var(--vscode-panel-border, transparent); font-size: .9em; }
  .item { margin: 6px 0; white-space: pre-wrap; word-break: break-word; }
  .user { border-left: 3px solid var(--vscode-textLink-foreground); padding-left: 8px; }
  .assistant.provisional { opacity: .75; }
  .marker { opacity: .7; font-size: .9em; }
  .marker.error, .tool.error summary, .tool.denied summary { color: var(--vscode-errorForeground); }
  .tool.interrupted summary { opacity: .7; }
  .marker.ok { color: var(--vscode-testing-iconPassed); }
  details.tool { border: 1px solid var(--vscode-panel-border); border-radius: 3px; padding: 2px 6px; }
  details.tool pre { margin: 4px 0; max-height: 300px; overflow: auto; background: var(--vscode-textCodeBlock-background); }
  details.thought summary { opacity: .7; font-style: italic; cursor: pointer; }
  details.thought .preview { margin-left: .5em; opacity: .7; }
  details.thought .body { opacity: .8; padding-left: 8px; border-left: 2px solid var(--vscode-panel-border); }
  .plan { border: 1px solid var(--vscode-panel-border); border-radius: 3px; padding: 4px 8px; }
  .plan ul { list-style: none; margin: 4px 0 0; padding: 0; }
  .plan li.completed { text-decoration: line-through; opacity: .6; }
  .plan li.in_progress { font-weight: bold; }
  .plan .tag { margin-left: .5em; font-size: .8em; padding: 0 4px; border-radius: 3px; background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); }
  .usage { opacity: .6; font-size: .85em; text-align: right; }
  .decision { border: 1px solid var(--vscode-inputValidation-warningBorder); padding: 6px; border-radius: 3px; }
  .decision button { margin: 4px 4px 0 0; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 3px 10px; cursor: pointer; }
  .decision button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
  #earlier { margin: 8px 0; }
</style>
</head>
<body>
<div id="state">Loading…</div>
<button id="earlier" hidden>Show earlier</button>
<div id="items"></div>
<script nonce="${options.nonce}">
(function () {
  const vscode = acquireVsCodeApi();
  const labels = ${labels};
  const list = document.getElementById("items");
  const earlier = document.getElementById("earlier");
  const state = document.getElementById("state");
  const byKey = new Map();
  const PLAN_MARKS = { pending: "☐", in_progress: "◐", completed: "☑" };
  let follow = true;
  window.addEventListener("scroll", () => {
    follow = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  });
  earlier.addEventListener("click", () => vscode.postMessage({ type: "showEarlier" }));

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function render(item) {
    switch (item.kind) {
      case "user": return el("div", "item user", item.text);
      case "assistant": return el("div", "item assistant" + (item.provisional ? " provisional" : ""), item.text);
      case "marker": return el("div", "item marker " + item.tone, item.text);
      case "thought": {
        const d = el("details", "item thought");
        const summary = el("summary", "", "Thinking…");
        summary.appendChild(el("span", "preview", item.text.trim().split("\\n")[0].slice(0, 100)));
        d.appendChild(summary);
        d.appendChild(el("div", "body", item.text));
        return d;
      }
      case "plan": {
        const d = el("div", "item plan");
        const done = item.entries.filter((e) => e.status === "completed").length;
        d.appendChild(el("div", "", "Plan · " + done + "/" + item.entries.length + " done"));
        const ul = el("ul");
        item.entries.forEach((e) => {
          const li = el("li", e.status, (PLAN_MARKS[e.status] || "☐") + " " + e.content);
          li.title = e.status.replace("_", " ") + ", " + e.priority + " priority";
          if (e.priority !== "medium") li.appendChild(el("span", "tag", e.priority));
          ul.appendChild(li);
        });
        d.appendChild(ul);
        return d;
      }
      case "usage": return el("div", "item usage", "Usage · " + item.text);
      case "tool": {
        const d = el("details", "item tool" + (item.denied ? " denied" : item.interrupted ? " interrupted" : item.isError ? " error" : ""));
        const mark = item.denied ? "⊘" : item.interrupted ? "–" : item.done ? (item.isError ? "✗" : "✓") : "…";
        const state = item.denied ? " (denied)" : item.interrupted ? " (no result: the turn ended)" : "";
        d.appendChild(el("summary", "", mark + " " + item.tool + state + "  " + item.input.slice(0, 120)));
        if (item.denied) d.appendChild(el("div", "marker error", "Denied: " + item.denied));
        d.appendChild(el("pre", "", item.input));
        if (item.output) d.appendChild(el("pre", "", item.output));
        if (item.result !== undefined && item.result !== item.output) d.appendChild(el("pre", "", item.result));
        return d;
      }
      case "decision": {
        const d = el("div", "item decision");
        d.appendChild(el("div", "", "⚑ " + item.title));
        if (item.detail) d.appendChild(el("div", "", item.detail));
        if (item.status === "pending" && item.options.length === 0) {
          const b = el("button", "", "Answer…");
          b.addEventListener("click", () => vscode.postMessage({ type: "answerText", decision: item.decision }));
          d.appendChild(b);
        } else if (item.status === "pending") {
          item.options.forEach((option, i) => {
            const b = el("button", i === 0 ? "" : "secondary", labels[option] || option);
            b.addEventListener("click", () => vscode.postMessage({ type: "answer", decision: item.decision, option }));
            d.appendChild(b);
          });
        } else {
          d.appendChild(el("div", "marker", item.status === "answered" ? "Answered: " + (labels[item.answer] || item.answer || "") : "Expired (denied)"));
        }
        return d;
      }
      default: return el("div", "item", JSON.stringify(item));
    }
  }

  function place(item) {
    const node = render(item);
    node.dataset.key = item.key;
    const old = byKey.get(item.key);
    if (old) {
      if (old.open) node.open = true; // an update keeps what the user unfolded
      old.replaceWith(node);
    } else {
      list.appendChild(node);
    }
    byKey.set(item.key, node);
  }

  function trim(start, total) {
    while (list.childElementCount > total - start && list.firstElementChild) {
      byKey.delete(list.firstElementChild.dataset.key);
      list.firstElementChild.remove();
    }
    earlier.hidden = start === 0;
  }

  window.addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === "reset") {
      list.textContent = "";
      byKey.clear();
      message.items.forEach(place);
      trim(message.start, message.total);
    } else if (message.type === "upsert") {
      message.items.forEach(place);
      trim(message.start, message.total);
    } else if (message.type === "state") {
      state.textContent = message.text;
      return;
    }
    if (follow) window.scrollTo(0, document.body.scrollHeight);
  });
  vscode.postMessage({ type: "ready" });
})();
</script>
</body>
</html>`;
}
