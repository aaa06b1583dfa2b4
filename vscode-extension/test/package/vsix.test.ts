// Checks the packaged roundhouse.vsix (run after `npm run package`): a zip holding the manifest, the
// bundled main and the README, whose package.json contributes every command and view the code registers.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "fs";
import * as path from "path";
import * as zlib from "zlib";

const root = path.join(__dirname, "..", "..", "..");

/** The entries of a zip file, read from its central directory (no dependency needed). */
function readZip(file: string): Map<string, Buffer> {
  const zip = fs.readFileSync(file);
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) {
    end--;
  }
  assert.ok(end >= 0, `${file} is not a zip (no end of central directory)`);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(offset), 0x02014b50, "central directory entry");
    const method = zip.readUInt16LE(offset + 10);
    const compressed = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.toString("utf8", offset + 46, offset + 46 + nameLength);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    entries.set(name, method === 0 ? data : zlib.inflateRawSync(data));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

interface Manifest {
  main: string;
  engines: { vscode: string };
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    views: Record<string, { id: string; name: string }[]>;
    viewsContainers: { activitybar: { id: string }[] };
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
    configuration: { properties: Record<string, unknown> };
  };
}

test("the .vsix holds the manifest, the bundled main and the README, and contributes what the code registers", () => {
  const vsix = path.join(root, "roundhouse.vsix");
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: run npm run package first`);
  const entries = readZip(vsix);
  assert.ok(entries.has("extension.vsixmanifest"));
  const manifest = JSON.parse(entries.get("extension/package.json")!.toString("utf8")) as Manifest;
  assert.equal(manifest.main, "./dist/extension.js");
  assert.equal(manifest.engines.vscode, "^1.91.0", "vscode-languageclient 11 needs ^1.91.0");
  const main = entries.get("extension/dist/extension.js");
  assert.ok(main && main.length > 10000, "the bundled main is in the package");
  assert.ok(main.toString("utf8").includes("roundhouse/watchTask"), "the bundle holds the protocol layer");
  assert.ok(!main.toString("utf8").includes('require("vscode-languageclient'), "vscode-languageclient is bundled, not required");
  const readme = [...entries.keys()].find((name) => name.toLowerCase() === "extension/readme.md");
  assert.ok(readme, `a README: ${[...entries.keys()].join(", ")}`);
  assert.match(entries.get(readme)!.toString("utf8"), /roundhouse\.server\.command/, "the README documents the settings");
  assert.ok(![...entries.keys()].some((name) => name.includes("node_modules") || name.includes("/src/")), "no sources or node_modules");

  // Every command the code registers is contributed, and nothing else.
  const { COMMAND_IDS } = require(path.join(root, "out", "src", "commands-ids.js")) as { COMMAND_IDS: readonly string[] };
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual(contributed, [...COMMAND_IDS].sort());
  for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
    for (const item of items) {
      assert.ok(contributed.includes(item.command), `${menu} names ${item.command}, which is not contributed`);
    }
  }
  assert.deepEqual(manifest.contributes.viewsContainers.activitybar.map((c) => c.id), ["roundhouse"]);
  const views = manifest.contributes.views.roundhouse.map((v) => v.id);
  assert.deepEqual(views, ["roundhouse.board", "roundhouse.needsYou", "roundhouse.schedules", "roundhouse.runbooks"]);
  for (const command of manifest.contributes.commands) {
    assert.equal(command.category, "Roundhouse", `${command.command} is under the Roundhouse category`);
    assert.ok(command.title.length > 0, `${command.command} has a title`);
  }
  for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
    for (const item of items) {
      for (const [, view] of (item.when ?? "").matchAll(/view == ([\w.]+)/g)) {
        assert.ok(views.includes(view), `${menu} ${item.command} names view ${view}, which is not contributed`);
      }
    }
  }
  for (const setting of ["roundhouse.hub.url", "roundhouse.server.command", "roundhouse.server.args", "roundhouse.server.env", "roundhouse.decisions.prompt", "roundhouse.transcript.pageSize"]) {
    assert.ok(setting in manifest.contributes.configuration.properties, setting);
  }
  assert.ok(!("keybindings" in manifest.contributes), "no default keybindings");
});

test("the extension activates only on use (its views, commands, terminal profile) or a workspace's opt-in, and the board welcomes a hub", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as Manifest & {
    activationEvents: string[];
    contributes: { viewsWelcome: { view: string; contents: string; when?: string }[] };
  };
  assert.ok(!manifest.activationEvents.includes("onStartupFinished") && !manifest.activationEvents.includes("*"), "not in every window");
  assert.deepEqual(manifest.activationEvents, ["onTerminalProfile:roundhouse.terminal", "workspaceContains:.vscode/roundhouse.json"]);
  const welcome = manifest.contributes.viewsWelcome.filter((w) => w.view === "roundhouse.board");
  const offline = welcome.find((w) => /Connect to a Hub/.test(w.contents));
  assert.ok(offline, "a welcome with Connect");
  assert.match(offline.contents, /\[Connect to a Hub\]\(command:roundhouse\.signIn\)/);
  assert.match(offline.contents, /\[Start Local Hub\]\(command:roundhouse\.startLocalHub\)/);
  assert.match(offline.when ?? "", /roundhouse\.connection != connected/);
});

test("the Schedules and Runbooks views have their refresh, item actions by context value, and destructive commands only in the context menu", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as Manifest;
  const { SCHEDULE_COMMAND_IDS } = require(path.join(root, "out", "src", "commands-ids.js")) as { SCHEDULE_COMMAND_IDS: readonly string[] };
  const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
  for (const id of SCHEDULE_COMMAND_IDS) {
    assert.ok(contributed.has(id), `${id} is contributed`);
  }
  const titles = manifest.contributes.menus["view/title"];
  for (const view of ["roundhouse.schedules", "roundhouse.runbooks"]) {
    assert.ok(titles.some((m) => m.command === "roundhouse.refreshSchedules" && (m.when ?? "").includes(`view == ${view}`) && m.group?.startsWith("navigation")),
      `${view} has a refresh button`);
  }
  const items = manifest.contributes.menus["view/item/context"];
  const where = (command: string) => items.filter((m) => m.command === command);
  const inline = (command: string) => where(command).filter((m) => m.group?.startsWith("inline"));
  assert.deepEqual(inline("roundhouse.pauseSchedule").map((m) => m.when), ["view == roundhouse.schedules && viewItem == schedule.active"]);
  assert.deepEqual(inline("roundhouse.resumeSchedule").map((m) => m.when), ["view == roundhouse.schedules && viewItem == schedule.paused"]);
  assert.deepEqual(inline("roundhouse.runRunbook").map((m) => m.when), ["view == roundhouse.runbooks && viewItem == runbook"]);
  assert.deepEqual(inline("roundhouse.openRunTranscript").map((m) => m.when), ["view == roundhouse.schedules && viewItem == run.task"]);
  for (const command of ["roundhouse.deleteSchedule", "roundhouse.deleteRunbook"]) {
    assert.equal(where(command).length, 1, `${command} is in the context menu`);
    assert.equal(inline(command).length, 0, `${command} is not an inline button`);
  }
  assert.ok(where("roundhouse.previewSchedule").some((m) => !m.group?.startsWith("inline")), "Preview is in the context menu");
});

test("the hub terminal is a terminal profile and a task's context menu command, and ws is bundled", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as Manifest & {
    activationEvents: string[];
    contributes: { terminal?: { profiles: { id: string; title: string }[] } };
  };
  const { TERMINAL_PROFILE_ID, TERMINAL_COMMAND_IDS } = require(path.join(root, "out", "src", "commands-ids.js")) as {
    TERMINAL_PROFILE_ID: string; TERMINAL_COMMAND_IDS: readonly string[];
  };
  assert.deepEqual(manifest.contributes.terminal?.profiles.map((p) => p.id), [TERMINAL_PROFILE_ID]);
  assert.ok(manifest.activationEvents.includes(`onTerminalProfile:${TERMINAL_PROFILE_ID}`), "the profile activates the extension");
  const command = manifest.contributes.commands.find((c) => c.command === TERMINAL_COMMAND_IDS[0]);
  assert.equal(command?.title, "Open Terminal in Task");
  const items = manifest.contributes.menus["view/item/context"].filter((m) => m.command === TERMINAL_COMMAND_IDS[0]);
  assert.deepEqual(items.map((m) => m.when), ["view == roundhouse.board && viewItem =~ /^task/"]);
  const main = readZip(path.join(root, "roundhouse.vsix")).get("extension/dist/extension.js")!.toString("utf8");
  assert.ok(!main.includes('require("ws")'), "ws is bundled, not required");
  assert.ok(main.includes("/api/x/pty"), "the bundle holds the terminal");
});
