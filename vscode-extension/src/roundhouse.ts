// The extension's state, wired: one bridge client, the board and decisions models, and the views that
// render them. Every write goes through the bridge; nothing here is the hub's state of record.

import * as vscode from "vscode";
import { LanguageClient, State } from "vscode-languageclient/node";
import { RoundhouseApi } from "./protocol/api";
import { describeError } from "./protocol/connection";
import { Decision, HubEvent, TaskStatus } from "./protocol/types";
import { BoardModel } from "./model/board";
import { DecisionBook } from "./model/decisions";
import { launchProblem, launchSettings, LaunchSettings } from "./model/launch";
import { createClient, rpcConnection } from "./server";
import { BoardTreeProvider } from "./views/boardTree";
import { NeedsYouTreeProvider } from "./views/needsYouTree";
import { DecisionPrompts } from "./views/prompts";
import { RoundhouseStatusBar } from "./views/statusBar";
import { TranscriptPanel } from "./views/transcriptPanel";
import { WorkspaceModel } from "./model/workspace";
import { ServiceLogChannels } from "./views/serviceLogChannels";
import { WorkspaceFace } from "./workspaceCommands";
import { ScheduleModel } from "./model/schedules";
import { RunbooksTreeProvider, SchedulesTreeProvider } from "./views/schedulesTree";
import { ScheduleFace } from "./scheduleCommands";

const BOARD_EVENTS = ["task.", "project.", "turn.started", "turn.ended", "workspace.", "review.", "pr.", "service.", "schedule.", "runbook."];
const ACTIVE_COLUMNS: readonly TaskStatus[] = ["in_progress", "review"];

export class Roundhouse implements vscode.Disposable, WorkspaceFace, ScheduleFace {
  readonly decisions = new DecisionBook();
  readonly workspace = new WorkspaceModel(() => this.api);
  readonly board = new BoardModel(this.decisions, this.workspace);
  readonly logs = new ServiceLogChannels(() => this.api);
  readonly boardTree = new BoardTreeProvider(this.board);
  readonly needsYouTree = new NeedsYouTreeProvider(this.decisions);
  readonly statusBar = new RoundhouseStatusBar();
  private readonly output = vscode.window.createOutputChannel("Roundhouse", { log: true });
  readonly schedules = new ScheduleModel(() => this.api, () => this.board.projects, { report: (message) => this.output.appendLine(message) });
  readonly schedulesTree = new SchedulesTreeProvider(this.schedules);
  readonly runbooksTree = new RunbooksTreeProvider(this.schedules);
  private readonly panels = new Map<number, TranscriptPanel>();
  private client: LanguageClient | undefined;
  private apiInstance: RoundhouseApi | undefined;
  private prompts: DecisionPrompts | undefined;
  private lastSeq: number | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  /** The bridge's API; throws with a sentence when the bridge is not running. */
  get api(): RoundhouseApi {
    if (!this.apiInstance || !this.client || this.client.state !== State.Running) {
      throw new Error("Roundhouse: the bridge (roundhouse lsp) is not running; run \"Roundhouse: Restart the Bridge\" or check the Roundhouse output");
    }
    return this.apiInstance;
  }

  async start(): Promise<void> {
    let settings: LaunchSettings;
    const config = vscode.workspace.getConfiguration("roundhouse");
    try {
      settings = launchSettings(config.get("server.command"), config.get("server.args"), config.get("server.env"));
    } catch (error) {
      this.fatal(describeError(error));
      return;
    }
    const client = createClient(settings, this.output, (message) => this.fatal(message));
    this.client = client;
    const api = new RoundhouseApi(rpcConnection(client));
    this.apiInstance = api;
    this.prompts = new DecisionPrompts(api);
    api.onEvent((event) => this.event(event));
    api.onDecision((decision) => this.decisionOpened(decision));
    api.onDecisionClosed((closed) => {
      this.decisions.close(closed);
      this.changed();
    });
    client.onDidChangeState((change) => {
      if (change.newState === State.Running) {
        void this.connected();
      } else if (change.newState === State.Stopped) {
        this.statusBar.disconnected("Roundhouse: the bridge stopped");
      }
    });
    try {
      await client.start();
    } catch (error) {
      this.fatal(launchProblem(settings, describeError(error)));
    }
  }

  async restart(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    this.apiInstance?.dispose();
    this.apiInstance = undefined;
    if (old) {
      await old.dispose().catch(() => undefined);
    }
    await this.start();
  }

  private fatal(message: string): void {
    this.statusBar.disconnected(message);
    void vscode.window.showErrorMessage(message, "Open Settings", "Show Output").then((choice) => {
      if (choice === "Open Settings") {
        void vscode.commands.executeCommand("workbench.action.openSettings", "roundhouse.server");
      } else if (choice === "Show Output") {
        this.output.show();
      }
    });
  }

  /** The bridge is (again) running: follow events from where we were, read the board, resume transcripts. */
  private async connected(): Promise<void> {
    try {
      const api = this.api;
      await api.subscribe(this.lastSeq, BOARD_EVENTS);
      const operations = await api.operationNames().catch((error) => {
        this.output.appendLine(`could not list the hub's operations: ${describeError(error)}`);
        return undefined;
      });
      if (operations) {
        await this.workspace.detect(operations);
        this.schedules.detect(operations);
      }
      const list = await api.decisions();
      this.decisions.reset(list.decisions);
      await this.refresh();
      await this.schedules.load();
      this.schedules.startPolling();
      await Promise.all([...this.panels.values()].map((panel) => panel.reconnect()));
    } catch (error) {
      this.output.appendLine(`could not read the board: ${describeError(error)}`);
    }
  }

  /** Reads the projects and their boards again, and which active tasks have a turn on. */
  async refresh(): Promise<void> {
    const api = this.api;
    const only = vscode.workspace.getConfiguration("roundhouse").get<string[]>("projects") ?? [];
    const projects = await api.projects();
    this.board.setProjects(projects.projects, only);
    await Promise.all(this.board.projects.map(async (project) => this.board.setBoard(await api.board(project.id))));
    const active = this.board.tasks().filter((task) => ACTIVE_COLUMNS.includes(task.status));
    await Promise.all(active.map(async (task) => {
      const turns = await api.turns(task.id, 1);
      this.board.setTurnStatus(task.id, turns.turns[0]?.status ?? "none");
    }));
    await this.workspace.loadServices(this.board.projects);
    this.changed();
    // The schedules views show the board's projects only: draw them again for the projects read now.
    this.schedulesTree.refresh();
    this.runbooksTree.refresh();
  }

  private event(event: HubEvent): void {
    this.lastSeq = Math.max(this.lastSeq ?? 0, event.seq);
    const project = this.board.apply(event);
    if (project !== undefined || event.type.startsWith("project.")) {
      this.scheduleRefresh();
    }
    this.schedules.apply(event);
    const services = this.workspace.apply(event);
    if (services !== undefined) {
      void this.workspace.loadProjectServices(services).then(async (list) => {
        if (list) {
          await this.logs.servicesChanged(list);
        }
        this.changed();
      });
    }
    this.changed();
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer === undefined) {
      this.refreshTimer = setTimeout(() => {
        this.refreshTimer = undefined;
        this.refresh().catch((error) => this.output.appendLine(`refresh failed: ${describeError(error)}`));
      }, 200);
    }
  }

  private decisionOpened(decision: Decision): void {
    this.decisions.open(decision);
    this.changed();
    const promptEnabled = vscode.workspace.getConfiguration("roundhouse").get<boolean>("decisions.prompt") ?? true;
    if (promptEnabled && this.prompts && this.decisions.claimPrompt(decision.id)) {
      void this.prompts.prompt(decision);
    }
  }

  changed(): void {
    this.boardTree.refresh();
    this.needsYouTree.refresh();
    this.statusBar.update(this.board.running.size, this.decisions.size);
  }

  get decisionPrompts(): DecisionPrompts {
    if (!this.prompts) {
      throw new Error("Roundhouse: the bridge has not started");
    }
    return this.prompts;
  }

  /** Opens (or reveals) the transcript of a task. */
  async openTranscript(task: number): Promise<void> {
    const open = this.panels.get(task);
    if (open) {
      open.reveal();
      return;
    }
    const config = vscode.workspace.getConfiguration("roundhouse");
    const title = this.board.task(task)?.title ?? "";
    const panel = vscode.window.createWebviewPanel("roundhouse.transcript", `#${task} ${title}`.trim(), vscode.ViewColumn.Active, {
      enableScripts: true, retainContextWhenHidden: true,
    });
    const transcript = new TranscriptPanel(
      panel, this.api, task,
      { pageSize: config.get<number>("transcript.pageSize") ?? 500, window: config.get<number>("transcript.window") ?? 200 },
      async (decision, option) => {
        const known = this.decisions.get(decision);
        if (known) {
          await this.decisionPrompts.answer(known, option);
        } else {
          await this.api.answerDecision(decision, option).catch((error) => vscode.window.showErrorMessage(`Roundhouse: ${describeError(error)}`));
        }
      },
      () => this.panels.delete(task),
    );
    this.panels.set(task, transcript);
    await transcript.open();
  }

  dispose(): void {
    this.panels.forEach((panel) => panel.dispose());
    this.logs.dispose();
    this.schedules.dispose();
    this.schedulesTree.dispose();
    this.runbooksTree.dispose();
    this.statusBar.dispose();
    this.output.dispose();
    this.apiInstance?.dispose();
    void this.client?.dispose();
  }
}
