// A remote hub: the bridge's WebSocket URL from roundhouse.hub.url, the Reconnector's states and backoff
// stepped with a fake timer, how a refusal is read, and the status bar's connection states.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConnectionState, Reconnector, Timer, backoffMs, connectionStatus } from "../../src/model/reconnect";
import { HubRefused, bridgeUrl } from "../../src/protocol/hubSocket";
import { hubTokenKey, remoteFailure } from "../../src/model/remoteHub";
import { RoundhouseStatusBar } from "../../src/views/statusBar";

/** A timer that runs nothing by itself: the test fires the pending pause and reads its length. */
class FakeTimer implements Timer {
  readonly pending = new Map<number, { run: () => void; ms: number }>();
  private next = 1;

  set(run: () => void, ms: number): unknown {
    const handle = this.next++;
    this.pending.set(handle, { run, ms });
    return handle;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Fires the one pending pause; returns its length. */
  fire(): number {
    assert.equal(this.pending.size, 1, "one pause pending");
    const [handle, { run, ms }] = [...this.pending.entries()][0];
    this.pending.delete(handle);
    run();
    return ms;
  }
}

/** Resolves after the microtasks queued so far have run (the Reconnector's awaits). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test("the bridge's URL comes from the hub's URL, and a bad setting is refused with its name", () => {
  assert.equal(bridgeUrl("http://127.0.0.1:7420"), "ws://127.0.0.1:7420/api/lsp");
  assert.equal(bridgeUrl("https://hub.example.com/"), "wss://hub.example.com/api/lsp");
  assert.equal(bridgeUrl(" https://example.com/roundhouse// "), "wss://example.com/roundhouse/api/lsp", "a proxy's path prefix is kept");
  assert.equal(bridgeUrl("ws://[::1]:9000"), "ws://[::1]:9000/api/lsp");
  assert.throws(() => bridgeUrl("127.0.0.1:7420"), /roundhouse\.hub\.url must be/);
  assert.throws(() => bridgeUrl("ftp://hub"), /roundhouse\.hub\.url must be an http/);
  assert.throws(() => bridgeUrl("http://hub/?token=x"), /without query/);
  assert.equal(hubTokenKey("http://127.0.0.1:7420/"), hubTokenKey("http://127.0.0.1:7420"), "one token per hub, however the URL is written");
  assert.notEqual(hubTokenKey("http://127.0.0.1:7420"), hubTokenKey("http://127.0.0.1:7421"));
});

test("a refused token asks to sign in, a refused Origin is final, a hub that is down is retried", () => {
  assert.deepEqual(remoteFailure(new HubRefused(401, "the bearer token is not this hub's token", "ws://h/api/lsp")),
    { message: "the hub at ws://h/api/lsp refused the connection (HTTP 401): the bearer token is not this hub's token", signIn: true });
  assert.equal(remoteFailure(new HubRefused(403, "origin refused", "ws://h/api/lsp")).final, true);
  assert.equal(remoteFailure(new HubRefused(503, "proxy: upstream down", "ws://h/api/lsp")).final, false);
  assert.deepEqual(remoteFailure(new Error("cannot reach the hub at ws://h/api/lsp: connect ECONNREFUSED")), {
    message: "cannot reach the hub at ws://h/api/lsp: connect ECONNREFUSED",
  });
});

test("the pause grows from 1 s, doubling, to at most 30 s", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 12].map((attempt) => backoffMs(attempt)), [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

test("the reconnector retries with backoff until the hub answers, and again after the connection is lost", async () => {
  const timer = new FakeTimer();
  const states: ConnectionState[] = [];
  let up = false;
  let attempts = 0;
  const reconnector = new Reconnector(async () => {
    attempts++;
    if (!up) {
      throw new Error("connect ECONNREFUSED");
    }
  }, (state) => states.push(state), timer, remoteFailure);

  reconnector.start();
  await settle();
  assert.deepEqual(states.map((s) => s.kind), ["connecting", "retrying"]);
  assert.equal(timer.fire(), 1000);
  await settle();
  assert.equal(timer.fire(), 2000);
  await settle();
  assert.equal(timer.fire(), 4000);
  await settle();
  const retrying = reconnector.current;
  assert.equal(retrying.kind, "retrying");
  assert.equal(retrying.kind === "retrying" && retrying.reason, "connect ECONNREFUSED");
  up = true;
  timer.fire();
  await settle();
  assert.equal(reconnector.current.kind, "connected");
  assert.equal(attempts, 5, "the first attempt, three retries that failed, and the one that worked");
  assert.equal(timer.pending.size, 0, "no pause once connected");

  reconnector.lost("the hub stopped");
  assert.deepEqual(reconnector.current, { kind: "retrying", attempt: 1, inMs: 1000, reason: "the hub stopped" });
  timer.fire();
  await settle();
  assert.equal(reconnector.current.kind, "connected", "the first attempt after a loss starts from the shortest pause");

  reconnector.stop();
  assert.equal(reconnector.current.kind, "stopped");
  reconnector.lost("late close");
  assert.equal(timer.pending.size, 0, "a stopped reconnector schedules nothing");
});

test("a refused token stops the reconnector signed out; stop() during an attempt drops its outcome", async () => {
  const timer = new FakeTimer();
  const refused = new Reconnector(() => Promise.reject(new HubRefused(401, "missing token", "ws://h/api/lsp")), () => undefined, timer, remoteFailure);
  refused.start();
  await settle();
  assert.equal(refused.current.kind, "signedOut");
  assert.equal(timer.pending.size, 0, "no retry: the token will not change by itself");

  let finish: (() => void) | undefined;
  const slow = new Reconnector(() => new Promise<void>((resolve) => { finish = resolve; }), () => undefined, timer, remoteFailure);
  slow.start();
  slow.stop();
  finish!();
  await settle();
  assert.equal(slow.current.kind, "stopped");
});

test("the status bar shows connecting, retrying, signed out, and the counts once connected", () => {
  const bar = new RoundhouseStatusBar();
  bar.update(2, 1);
  bar.connection({ kind: "connecting", attempt: 1 }, "http://hub:7420");
  assert.equal(bar.text, "$(sync~spin) Roundhouse: connecting");
  bar.update(3, 0);
  assert.equal(bar.text, "$(sync~spin) Roundhouse: connecting", "counts do not hide the connection's state");
  bar.connection({ kind: "retrying", attempt: 2, inMs: 4000, reason: "connect ECONNREFUSED" }, "http://hub:7420");
  assert.equal(bar.text, "$(debug-disconnect) Roundhouse: retrying in 4 s");
  bar.connection({ kind: "signedOut", reason: "Not signed in to the hub at http://hub:7420" }, "http://hub:7420");
  assert.equal(bar.text, "$(account) Roundhouse: signed out");
  assert.match(connectionStatus({ kind: "signedOut", reason: "x" }, "h")?.tooltip ?? "", /Sign in to Hub/);
  bar.connection({ kind: "connected" }, "http://hub:7420");
  assert.equal(bar.text, "$(sync~spin) 3  $(bell) 0");
});
