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
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    viewsContainers: { activitybar: { id: string }[] };
    menus: Record<string, { command: string }[]>;
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
  assert.deepEqual(manifest.contributes.views.roundhouse.map((v) => v.id), ["roundhouse.board", "roundhouse.needsYou"]);
  for (const setting of ["roundhouse.server.command", "roundhouse.server.args", "roundhouse.server.env", "roundhouse.decisions.prompt", "roundhouse.transcript.pageSize"]) {
    assert.ok(setting in manifest.contributes.configuration.properties, setting);
  }
  assert.ok(!("keybindings" in manifest.contributes), "no default keybindings");
});
