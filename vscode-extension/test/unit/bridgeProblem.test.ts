// Defect 6 of issue 21: one failed bridge start shows one error, and it goes when the bridge runs again.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { recorder } from "../stub/vscode";
import { BridgeProblem } from "../../src/views/bridgeProblem";
import { launchProblem, launchSettings, quietErrors } from "../../src/model/launch";
import { until } from "./fakeBridge";

beforeEach(() => recorder.reset());

test("defect 6: the client's own error notification is turned off: its errors are logged only", () => {
  const calls: { message: string; show: boolean | "force" | undefined }[] = [];
  const client = quietErrors({
    error(message: string, _data?: unknown, show?: boolean | "force") {
      calls.push({ message, show });
    },
  });
  client.error("Roundhouse client: couldn't create connection to server.", new Error("spawn roundhouse ENOENT"), "force");
  assert.deepEqual(calls, [{ message: "Roundhouse client: couldn't create connection to server.", show: false }]);
});

test("defect 6: one notification per problem, with its actions, closed when the bridge runs again", async () => {
  const problem = new BridgeProblem();
  const sentence = "Roundhouse could not start the bridge (roundhouse lsp): spawn roundhouse ENOENT. Set roundhouse.server.command";
  problem.show(sentence);
  problem.show(sentence); // the same failure reported again (start, then the client's close handler)
  assert.equal(recorder.progress.length, 1, "one notification");
  const toast = recorder.progress[0];
  assert.ok(toast.title.startsWith(sentence));
  assert.deepEqual([...toast.title.matchAll(/\[([^\]]+)\]\(command:([^)?]+)/g)].map((m) => [m[1], m[2]]), [
    ["Open Settings", "workbench.action.openSettings"], ["Show Output", "roundhouse.showOutput"], ["Restart the Bridge", "roundhouse.restartServer"],
  ]);
  assert.ok(!recorder.shown.some((s) => s.kind === "error"), "no message notification that could not be closed");

  problem.clear(); // the bridge runs
  await until("the notification closed", () => toast.done);
  assert.equal(problem.shown, undefined);

  problem.show("the bridge stopped 5 times");
  assert.equal(recorder.progress.length, 2, "a later failure shows again");
  recorder.progress[1].cancel(); // the user closes it
  await until("dismissed", () => recorder.progress[1].done && problem.shown === undefined);
  problem.show("the bridge stopped 5 times");
  assert.equal(recorder.progress.length, 3, "after a dismissal the next failure is shown");
  problem.dispose();
  await until("closed on dispose", () => recorder.progress[2].done);
});

test("defect 6: a bridge that exits while the client initializes is said so, not as the client's wording", () => {
  const message = launchProblem(launchSettings("roundhouse", ["lsp"], {}), "Pending response rejected since connection got disposed");
  assert.match(message, /^Roundhouse: `roundhouse lsp` stopped: it exited before it answered\. See the Roundhouse output/);
});
