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
import { createClient, createRemoteClient, rpcConnection } from "./server";
import { ConnectionState, Reconnector, realTimer } from "./model/reconnect";
import { bridgeUrl } from "./protocol/hubSocket";
import { hubTokenKey, remoteFailure } from "./model/remoteHub";
import { HubAddress } from "./terminal/hubAddress";
import { BoardTreeProvider } from "./views/boardTree";
import { NeedsYouTreeProvider } from "./views/needsYouTree";
import { DecisionPrompts } from "./views/prompts";
import { RoundhouseStatusBar } from "./views/statusBar";
import { BridgeProblem } from "./views/bridgeProblem";
import { TranscriptPanel } from "./views/transcriptPanel";
import { WorkspaceModel } from "./model/workspace";
import { ServiceLogChannels } from "./views/serviceLogChannels";
import { ReviewComments } from "./views/reviewComments";
import { WorkspaceFace } from "./workspaceCommands";
import { ScheduleModel } from "./model/schedules";
import { RunbooksTreeProvider, SchedulesTreeProvider } from "./views/schedulesTree";
import { ScheduleFace } from "./scheduleCommands";

const BOARD_EVENTS = ["task.", "project.", "turn.started", "turn.ended", "workspace.", "review.", "pr.", "service.", "schedule.", "runbook."];
const ACTIVE_COLUMNS: readonly TaskStatus[] = ["in_progress", "review"];
const OPEN_COLUMNS: readonly TaskStatus[] = ["backlog", "todo", "in_progress", "review"];

export class Roundhouse implements vscode.Disposable, WorkspaceFace, ScheduleFace {
  /** @param secrets where the remote hub's token is kept (the extension's SecretStorage) */
  constructor(private readonly secrets?: vscode.SecretStorage) {}

  readonly decisions = new DecisionBook();
  readonly workspace = new WorkspaceModel(() => this.api);
  readonly board = new BoardModel(this.decisions, this.workspace);
  readonly logs = new ServiceLogChannels(() => this.api);
  readonly reviewComments = new ReviewComments();
  readonly boardTree = new BoardTreeProvider(this.board);
  readonly needsYouTree = new NeedsYouTreeProvider(this.decisions);
  readonly statusBar = new RoundhouseStatusBar();
  /** The one notification saying why the bridge is not running; closed when it runs. */
  readonly problem = new BridgeProblem();
  private readonly output = vscode.window.createOutputChannel("Roundhouse", { log: true });
  readonly schedules = new ScheduleModel(() => this.api, () => this.board.projects, { report: (message) => this.output.appendLine(message) });
  readonly schedulesTree = new SchedulesTreeProvider(this.schedules);
  readonly runbooksTree = new RunbooksTreeProvider(this.schedules);
  private readonly panels = new Map<number, TranscriptPanel>();
  readonly decisionPrompts = new DecisionPrompts(() => this.api, this.decisions);
  private client: LanguageClient | undefined;
  private reconnector: Reconnector | undefined;
  private restarting: Promise<void> | undefined;
  private restartWanted = false;
  private remoteUrl: string | undefined;
  private remoteToken: string | undefined;
  private apiInstance: RoundhouseApi | undefined;
  private lastSeq: number | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private seedAllColumns = true;

  /** The bridge's API; throws with a sentence when the bridge is not running. */
  get api(): RoundhouseApi {
    if (!this.apiInstance || !this.client || this.client.state !== State.Running) {
      throw new Error(this.remoteUrl !== undefined
        ? `Roundhouse: not connected to the hub at ${this.remoteUrl}; see the status bar, or run "Roundhouse: Sign in to Hub"`
        : "Roundhouse: the bridge (roundhouse lsp) is not running; run \"Roundhouse: Restart the Bridge\" or check the Roundhouse output");
    }
    return this.apiInstance;
  }

  /** The remote hub's address while one is configured and signed in to (the terminal talks to it too). */
  get remoteHub(): HubAddress | undefined {
    return this.remoteUrl !== undefined && this.remoteToken !== undefined ? { url: this.remoteUrl.replace(/\/+$/, ""), token: this.remoteToken } : undefined;
  }

  /** Connects: to the hub at roundhouse.hub.url over its WebSocket, or (no URL) through a local `roundhouse lsp`. */
  async start(): Promise<void> {
    const config = vscode.workspace.getConfiguration("roundhouse");
    const hubUrl = (config.get<string>("hub.url") ?? "").trim();
    if (hubUrl !== "") {
      await this.startRemote(hubUrl);
      return;
    }
    this.remoteUrl = undefined;
    this.remoteToken = undefined;
    let settings: LaunchSettings;
    try {
      settings = launchSettings(config.get("server.command"), config.get("server.args"), config.get("server.env"));
    } catch (error) {
      this.fatal(describeError(error));
      return;
    }
    this.setConnection("connecting");
    // One failed start, one sentence. The first attempt's start() rejects at once (write EPIPE) while the
    // client goes on restarting; after 5 stops it gives up ("the bridge stopped 5 times"). Whichever comes
    // first shows and stays until the bridge runs (replacing it would flash a second notice); the other goes
    // to the output. A replaced client (Restart the Bridge while it was still failing) may fail later still:
    // only the current client's failures show.
    let reported = false;
    const report = (message: string): void => {
      if (this.client === client && !reported) {
        reported = true;
        this.fatal(message);
      } else {
        this.output.appendLine(`the bridge failed again or was replaced: ${message}`);
      }
    };
    const client: LanguageClient = createClient(settings, this.output, report);
    client.onDidChangeState((change) => {
      if (change.newState === State.Running) {
        reported = false; // running again: its next failure is news
      }
    });
    this.attach(client, false);
    try {
      await client.start();
    } catch (error) {
      report(launchProblem(settings, describeError(error)));
    }
  }

  /** The remote hub: the token from SecretStorage, then connect and keep connected (Reconnector). */
  private async startRemote(hubUrl: string): Promise<void> {
    this.remoteUrl = hubUrl;
    let target: string;
    try {
      target = bridgeUrl(hubUrl);
    } catch (error) {
      this.remoteState({ kind: "failed", reason: describeError(error) });
      return;
    }
    const token = await this.secrets?.get(hubTokenKey(hubUrl));
    this.remoteToken = token;
    if (!token) {
      this.remoteState({ kind: "signedOut", reason: `Not signed in to the hub at ${hubUrl}` });
      return;
    }
    const reconnector = new Reconnector(() => this.connectRemote(target, token), (state) => this.remoteState(state), realTimer, remoteFailure);
    this.reconnector = reconnector;
    reconnector.start();
  }

  /** One attempt: a new client over a new socket; resolves once it runs, rejects with why it did not. */
  private async connectRemote(target: string, token: string): Promise<void> {
    await this.dropClient();
    const { client, lastFailure } = createRemoteClient(target, token, this.output, (reason) => {
      if (this.client === client) {
        this.reconnector?.lost(reason);
      }
    });
    this.attach(client, true);
    try {
      await client.start();
    } catch (error) {
      const failure = lastFailure() ?? error;
      this.output.warn(`connecting to the hub failed: ${describeError(failure)}`);
      await this.dropClient();
      throw failure;
    }
  }

  private remoteState(state: ConnectionState): void {
    const hub = this.remoteUrl ?? "";
    this.statusBar.connection(state, hub);
    this.setConnection(state.kind, "reason" in state ? state.reason : undefined);
  }

  /** The connection's state for the welcome view (context key roundhouse.connection) and the board's message. */
  private setConnection(kind: string, reason?: string): void {
    void vscode.commands.executeCommand("setContext", "roundhouse.connection", kind);
    void vscode.commands.executeCommand("setContext", "roundhouse.remote", this.remoteUrl !== undefined);
    if (this.boardTree.view) {
      this.boardTree.view.message = kind === "connected" || kind === "connecting" ? undefined : reason;
    }
  }

  /** Wires a new client: the protocol layer over it, and what happens when it runs or stops. */
  private attach(client: LanguageClient, remote: boolean): void {
    this.client = client;
    const api = new RoundhouseApi(rpcConnection(client));
    this.apiInstance = api;
    api.onEvent((event) => this.event(event));
    api.onDecision((decision) => this.decisionOpened(decision));
    api.onDecisionClosed((closed) => {
      // Answered here or elsewhere, or expired: every prompt for it goes (Needs you, notification, transcript).
      this.decisions.close(closed);
      this.decisionPrompts.closed(closed.decision);
      this.panels.forEach((panel) => panel.decisionClosed(closed));
      this.changed();
    });
    client.onDidChangeState((change) => {
      if (this.client !== client) {
        return;
      }
      if (change.newState === State.Running) {
        this.problem.clear(); // recovered: the error goes
        if (!remote) {
          this.statusBar.connected();
          this.setConnection("connected");
        }
        void this.connected();
      } else if (change.newState === State.Stopped && !remote) {
        this.statusBar.disconnected("Roundhouse: the bridge stopped");
      }
    });
  }

  /** Forgets the current client (its late events are ignored) and disposes it. */
  private async dropClient(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    this.apiInstance?.dispose();
    this.apiInstance = undefined;
    if (old) {
      await old.dispose().catch(() => undefined);
    }
  }

  /**
   * Stops and starts the connection with the settings as they are now. Calls while one runs are folded into one
   * more run after it (clearing roundhouse.hub.url in two scopes fires two changes): never two at once.
   */
  restart(): Promise<void> {
    this.restartWanted = true;
    if (this.restarting === undefined) {
      this.restarting = (async () => {
        while (this.restartWanted) {
          this.restartWanted = false;
          this.reconnector?.stop();
          this.reconnector = undefined;
          await this.dropClient();
          await this.start();
        }
      })().finally(() => {
        this.restarting = undefined;
      });
    }
    return this.restarting;
  }

  private fatal(message: string): void {
    this.statusBar.disconnected(message);
    this.setConnection("failed", message);
    this.problem.show(message);
  }

  /** Shows the bridge's output (the log of roundhouse lsp and the client). */
  showOutput(): void {
    this.output.show();
  }

  /** The bridge is (again) running: follow events from where we were, read the board, resume transcripts. */
  private async connected(): Promise<void> {
    let api: RoundhouseApi;
    try {
      api = this.api;
    } catch (error) {
      this.output.appendLine(`could not read the board: ${describeError(error)}`);
      return;
    }
    // After "Restart the Bridge" the client is a new one: open transcripts follow it at once, whatever becomes of
    // reading the board below (a failure there, or a slow read of many tasks, must not leave them on the old one).
    const transcripts = Promise.all([...this.panels.values()].map((panel) => panel.reconnect(api)));
    try {
      await api.subscribe(this.lastSeq, BOARD_EVENTS);
      this.seedAllColumns = true;
      const operations = await api.operationNames().catch((error) => {
        this.output.appendLine(`could not list the hub's operations: ${describeError(error)}`);
        return undefined;
      });
      if (operations) {
        await this.workspace.detect(operations);
        this.schedules.detect(operations);
      }
      const list = await api.decisions();
      // Decisions closed while the bridge was away lose their prompts too.
      this.decisions.reset(list.decisions).forEach((id) => this.decisionPrompts.closed(id));
      await this.refresh();
      await this.schedules.load();
      this.schedules.startPolling();
    } catch (error) {
      this.output.appendLine(`could not read the board: ${describeError(error)}`);
    }
    await transcripts; // each panel reports its own failure in its header
  }

  /** Reads the projects and their boards again, and which active tasks have a turn on. */
  async refresh(): Promise<void> {
    const api = this.api;
    const only = vscode.workspace.getConfiguration("roundhouse").get<string[]>("projects") ?? [];
    const projects = await api.projects();
    this.board.setProjects(projects.projects, only);
    await Promise.all(this.board.projects.map(async (project) => this.board.setBoard(await api.board(project.id))));
    // Turn starts and ends keep the running badges; a turn already running when the board is first read (at
    // each connection) may be on a task in any open column, later reads check the active columns only.
    const columns = this.seedAllColumns ? OPEN_COLUMNS : ACTIVE_COLUMNS;
    this.seedAllColumns = false;
    const active = this.board.tasks().filter((task) => columns.includes(task.status));
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
    if (promptEnabled && this.decisions.claimPrompt(decision.id)) {
      void this.decisionPrompts.prompt(decision);
    }
  }

  changed(): void {
    this.boardTree.refresh();
    this.needsYouTree.refresh();
    this.statusBar.update(this.board.running.size, this.decisions.size);
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
      async (decision, action) => {
        if (this.decisions.get(decision)) {
          await this.decisionPrompts.fromPrompt(decision, action);
        } else if ("option" in action) {
          // Not in the book (yet): the hub decides, and says so if it is closed.
          await this.api.answerDecision(decision, action.option).catch((error) => vscode.window.showErrorMessage(`Roundhouse: ${describeError(error)}`));
        }
      },
      () => this.panels.delete(task),
    );
    this.panels.set(task, transcript);
    await transcript.open();
  }

  dispose(): void {
    this.panels.forEach((panel) => panel.dispose());
    this.decisionPrompts.dispose();
    this.logs.dispose();
    this.reviewComments.dispose();
    this.schedules.dispose();
    this.schedulesTree.dispose();
    this.runbooksTree.dispose();
    this.statusBar.dispose();
    this.problem.dispose();
    this.output.dispose();
    this.reconnector?.stop();
    this.apiInstance?.dispose();
    void this.client?.dispose();
  }
}
