// Sign in to Hub, Sign out of Hub and Start Local Hub run through commands.executeCommand over the stub's
// settings and an in-memory SecretStorage: where the URL and the token go, and when the connection restarts.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as vscode from "vscode";
import { commands, recorder, settings, SecretStorageStub } from "../stub/vscode";
import { registerHubCommands } from "../../src/hubCommands";
import { hubTokenKey } from "../../src/model/remoteHub";

function setUp(): { secrets: SecretStorageStub; restarts: () => number; dispose(): void } {
  recorder.reset();
  settings.reset();
  const secrets = new SecretStorageStub();
  const context = { subscriptions: [] as { dispose(): void }[], secrets } as unknown as vscode.ExtensionContext;
  let restarts = 0;
  registerHubCommands(context, { restart: () => { restarts++; return Promise.resolve(); } });
  return {
    secrets,
    restarts: () => restarts,
    dispose: () => (context.subscriptions as { dispose(): void }[]).forEach((d) => d.dispose()),
  };
}

test("Sign in to Hub keeps the token in secret storage, the URL in the user's settings, and reconnects once", async () => {
  const face = setUp();
  try {
    recorder.answers = ["https://hub.example.com/", " s3cret-token "];
    await commands.executeCommand("roundhouse.signIn");
    assert.deepEqual(recorder.shown.map((s) => s.kind), ["inputBox", "inputBox"]);
    assert.equal(face.secrets.values.get(hubTokenKey("https://hub.example.com")), "s3cret-token");
    assert.equal(settings.global.get("roundhouse.hub.url"), "https://hub.example.com/");
    assert.ok(![...settings.global.values(), ...settings.workspace.values()].includes("s3cret-token"), "the token is not a setting");
    assert.equal(face.restarts(), 1, "the setting's change reconnects");

    // The same URL again (a new token): no setting changes, the command reconnects itself.
    recorder.answers = ["https://hub.example.com/", "rotated"];
    await commands.executeCommand("roundhouse.signIn");
    assert.equal(face.secrets.values.get(hubTokenKey("https://hub.example.com")), "rotated");
    assert.equal(face.restarts(), 2);

    // Dismissing the token box changes nothing.
    recorder.answers = ["http://127.0.0.1:7420", undefined];
    await commands.executeCommand("roundhouse.signIn");
    assert.equal(settings.global.get("roundhouse.hub.url"), "https://hub.example.com/");
    assert.equal(face.restarts(), 2);

    await commands.executeCommand("roundhouse.signOut");
    assert.equal(face.secrets.values.size, 0, "the token is forgotten");
    assert.equal(face.restarts(), 3, "and the connection restarts, signed out");
  } finally {
    face.dispose();
  }
});

test("Sign in writes the URL where the workspace set it; Start Local Hub clears it in every scope", async () => {
  const face = setUp();
  try {
    settings.workspace.set("roundhouse.hub.url", "http://10.0.0.5:7420");
    settings.global.set("roundhouse.hub.url", "http://10.0.0.6:7420");
    recorder.answers = ["http://10.0.0.7:7420", "t"];
    await commands.executeCommand("roundhouse.signIn");
    assert.equal(settings.workspace.get("roundhouse.hub.url"), "http://10.0.0.7:7420");
    assert.equal(settings.global.get("roundhouse.hub.url"), "http://10.0.0.6:7420", "the user's value is left alone");

    const before = face.restarts();
    await commands.executeCommand("roundhouse.startLocalHub");
    assert.equal(settings.workspace.has("roundhouse.hub.url"), false);
    assert.equal(settings.global.has("roundhouse.hub.url"), false);
    assert.ok(face.restarts() > before, "the change restarts in local mode");

    const local = face.restarts();
    await commands.executeCommand("roundhouse.startLocalHub");
    assert.equal(face.restarts(), local + 1, "already local: the bridge restarts (it starts a hub when none runs)");
    await commands.executeCommand("roundhouse.signOut");
    assert.match(recorder.shown.at(-1)?.message ?? "", /no remote hub is set/);
  } finally {
    face.dispose();
  }
});
