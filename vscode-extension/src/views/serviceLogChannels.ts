import * as vscode from "vscode";
import { RoundhouseApi } from "../protocol/api";
import { ServiceList } from "../protocol/types";
import { LogFollower, Timers } from "../model/serviceLogs";
import { serviceRunning } from "../model/workspace";

interface Followed {
  readonly channel: vscode.OutputChannel;
  readonly follower: LogFollower;
  readonly projectId: number;
}

/**
 * One output channel per service ("Roundhouse: web/http"), opened by Show Logs and streamed while the
 * service runs: the last lines first, then service_logs from the last offset every second. A service that
 * stops gets its last lines read and polling ends; it resumes when the service starts again.
 */
export class ServiceLogChannels implements vscode.Disposable {
  private readonly followed = new Map<string, Followed>();

  constructor(private readonly api: () => RoundhouseApi, private readonly timers?: Timers) {}

  static channelName(project: string, service: string): string {
    return `Roundhouse: ${project}/${service}`;
  }

  /** Shows the service's channel (created on first use) and follows its log while it runs. */
  async show(project: { id: number; name: string }, service: string, running: boolean): Promise<LogFollower> {
    const key = `${project.id}/${service}`;
    let entry = this.followed.get(key);
    if (!entry) {
      const channel = vscode.window.createOutputChannel(ServiceLogChannels.channelName(project.name, service));
      const follower = new LogFollower(this.api, project.id, service, { append: (text) => channel.appendLine(text) },
        this.timers ? { timers: this.timers } : {});
      entry = { channel, follower, projectId: project.id };
      this.followed.set(key, entry);
    }
    entry.channel.show(true);
    if (running) {
      await entry.follower.start();
    } else {
      await entry.follower.read();
    }
    return entry.follower;
  }

  follower(projectId: number, service: string): LogFollower | undefined {
    return this.followed.get(`${projectId}/${service}`)?.follower;
  }

  /** A project's services were read again: follow the ones that run, finish the ones that stopped. */
  async servicesChanged(list: ServiceList): Promise<void> {
    await Promise.all(list.services.map(async (service) => {
      const entry = this.followed.get(`${list.project_id}/${service.definition.name}`);
      if (entry && (entry.follower.following || serviceRunning(service.state.status))) {
        await entry.follower.statusChanged(service.state.status);
      }
    }));
  }

  dispose(): void {
    this.followed.forEach((entry) => {
      entry.follower.stop();
      entry.channel.dispose();
    });
    this.followed.clear();
  }
}
