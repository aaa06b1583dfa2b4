// The Schedules and Runbooks views' commands: pause, resume, preview and delete a schedule, open a run's
// transcript, run and delete a runbook. Each works from a tree node (its argument) or, from the command
// palette, asks for what it needs. Every write is a roundhouse/call; the lists are read again after it.

import * as vscode from "vscode";
import { RoundhouseApi } from "./protocol/api";
import { describeError } from "./protocol/connection";
import { Runbook, ScheduleView } from "./protocol/types";
import { runStatusLabel, RunbookNode, ScheduleModel, ScheduleNode } from "./model/schedules";
import { SCHEDULE_COMMAND_IDS } from "./commands-ids";

/** What the commands need from the extension (Roundhouse implements it; tests give a small one). */
export interface ScheduleFace {
  readonly api: RoundhouseApi;
  readonly schedules: ScheduleModel;
  /** Opens (or reveals) a task's transcript, as the board does. */
  openTranscript(task: number): Promise<void>;
}

type Id = (typeof SCHEDULE_COMMAND_IDS)[number];
const PREVIEW_COUNT = 10;

function node(arg: unknown): ScheduleNode | RunbookNode | undefined {
  return typeof arg === "object" && arg !== null && typeof (arg as { kind?: unknown }).kind === "string" ? (arg as ScheduleNode) : undefined;
}

export function registerScheduleCommands(context: { subscriptions: { dispose(): unknown }[] }, face: ScheduleFace): void {
  const register = (id: Id, run: (arg: unknown) => Promise<unknown>): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, async (arg: unknown) => {
      try {
        await run(arg);
      } catch (error) {
        void vscode.window.showErrorMessage(`Roundhouse: ${describeError(error).replace(/^Roundhouse: /, "")}`);
      }
    }));
  };

  const pickSchedule = async (arg: unknown, placeHolder: string, wanted: (view: ScheduleView) => boolean = () => true): Promise<ScheduleView | undefined> => {
    const n = node(arg);
    if (n?.kind === "schedule") {
      return face.schedules.schedule(n.view.schedule.id) ?? n.view;
    }
    const picked = await vscode.window.showQuickPick(
      face.schedules.schedules.filter(wanted).map((view) => ({ label: view.schedule.name, description: view.schedule.recurrence, view })),
      { placeHolder },
    );
    return picked?.view;
  };

  const pickRunbook = async (arg: unknown, placeHolder: string): Promise<Runbook | undefined> => {
    const n = node(arg);
    if (n?.kind === "runbook") {
      return n.runbook;
    }
    const picked = await vscode.window.showQuickPick(
      face.schedules.runbooks.map((runbook) => ({ label: runbook.name, description: runbook.driver ?? "default driver", runbook })),
      { placeHolder },
    );
    return picked?.runbook;
  };

  register("roundhouse.refreshSchedules", () => face.schedules.load());

  const pause = (paused: boolean) => async (arg: unknown): Promise<void> => {
    const view = await pickSchedule(arg, `${paused ? "Pause" : "Resume"} which schedule?`, (v) => v.schedule.paused !== paused);
    if (!view) {
      return;
    }
    const schedule = await face.api.pauseSchedule(view.schedule.id, paused);
    await face.schedules.load();
    const next = !schedule.paused && schedule.next_at ? `; next firing ${face.schedules.formatTime(schedule.next_at)}` : "";
    vscode.window.setStatusBarMessage(`Roundhouse: ${paused ? "paused" : "resumed"} schedule ${schedule.name}${next}`, 4000);
  };
  register("roundhouse.pauseSchedule", pause(true));
  register("roundhouse.resumeSchedule", pause(false));

  register("roundhouse.previewSchedule", async (arg) => {
    const view = await pickSchedule(arg, "Preview the next firings of which schedule?");
    if (!view) {
      return;
    }
    const preview = await face.api.schedulePreview(view.schedule.id, PREVIEW_COUNT);
    if (preview.firings.length === 0) {
      void vscode.window.showInformationMessage(`Roundhouse: schedule ${view.schedule.name} fires no more (${preview.recurrence}, ${preview.zone})`);
      return;
    }
    await vscode.window.showQuickPick(
      preview.firings.map((firing) => ({ label: face.schedules.formatTime(firing.at), description: `${firing.local} ${preview.zone}` })),
      { title: `Next firings of ${view.schedule.name}${view.schedule.paused ? " (paused)" : ""}: ${preview.recurrence} in ${preview.zone}`, placeHolder: "Local time · the schedule's zone" },
    );
  });

  register("roundhouse.deleteSchedule", async (arg) => {
    const view = await pickSchedule(arg, "Delete which schedule?");
    if (!view) {
      return;
    }
    const go = await vscode.window.showWarningMessage(
      `Delete schedule ${view.schedule.name} and its run history? Runs still going keep their tasks.`, { modal: true }, "Delete");
    if (go !== "Delete") {
      return;
    }
    await face.api.deleteSchedule(view.schedule.id);
    await face.schedules.load();
    vscode.window.setStatusBarMessage(`Roundhouse: deleted schedule ${view.schedule.name}`, 4000);
  });

  register("roundhouse.openRunTranscript", async (arg) => {
    const n = node(arg);
    if (n?.kind === "run" && n.task_id !== undefined) {
      await face.openTranscript(n.task_id);
      return;
    }
    const view = await pickSchedule(arg, "Open a run of which schedule?");
    if (!view) {
      return;
    }
    const runs = await face.schedules.loadRuns(view.schedule.id);
    if (runs.state === "failed") {
      throw new Error(runs.reason);
    }
    const picked = await vscode.window.showQuickPick(
      runs.value.filter((run) => run.task_id !== undefined)
        .map((run) => ({ label: face.schedules.formatTime(run.scheduled_at), description: `${runStatusLabel(run.status)} · #${run.task_id}`, task: run.task_id as number })),
      { placeHolder: `Open the transcript of which run of ${view.schedule.name}?` },
    );
    if (picked) {
      await face.openTranscript(picked.task);
    }
  });

  register("roundhouse.runRunbook", async (arg) => {
    const runbook = await pickRunbook(arg, "Run which runbook?");
    if (!runbook) {
      return;
    }
    const started = await face.api.runRunbook(runbook.id);
    vscode.window.setStatusBarMessage(`Roundhouse: runbook ${runbook.name} started #${started.task.id} ${started.task.title}`, 4000);
    await face.openTranscript(started.task.id);
  });

  register("roundhouse.deleteRunbook", async (arg) => {
    const runbook = await pickRunbook(arg, "Delete which runbook?");
    if (!runbook) {
      return;
    }
    const go = await vscode.window.showWarningMessage(
      `Delete runbook ${runbook.name}? Tasks it started stay.`, { modal: true }, "Delete");
    if (go !== "Delete") {
      return;
    }
    await face.api.deleteRunbook(runbook.id);
    await face.schedules.load();
    vscode.window.setStatusBarMessage(`Roundhouse: deleted runbook ${runbook.name}`, 4000);
  });
}
