// Where the hub listens and its token, found the way the CLI finds them (docs/cli.md): ROUNDHOUSE_URL and
// ROUNDHOUSE_TOKEN when set (in the environment or the roundhouse.server.env setting), else the URL the hub
// published in $ROUNDHOUSE_HOME/hub.lock and the token in $ROUNDHOUSE_HOME/token. The bridge speaks LSP and
// does not carry a terminal's bytes, so the terminal talks to the hub's WebSocket itself.

import * as os from "os";
import * as path from "path";

export interface HubAddress {
  readonly url: string;
  readonly token: string;
}

/** Reads a file as text, or throws (fs.readFileSync in the extension; a map in tests). */
export type ReadText = (file: string) => string;

export function locateHub(env: Readonly<Record<string, string | undefined>>, readText: ReadText): HubAddress {
  const home = env.ROUNDHOUSE_HOME ?? path.join(os.homedir(), ".roundhouse");
  let url = env.ROUNDHOUSE_URL;
  if (!url) {
    let lock: { url?: unknown };
    try {
      lock = JSON.parse(readText(path.join(home, "hub.lock"))) as { url?: unknown };
    } catch {
      throw new Error(`no hub is running for ${home} (no URL in ${path.join(home, "hub.lock")}); open the board to start one, or set ROUNDHOUSE_URL`);
    }
    if (typeof lock.url !== "string") {
      throw new Error(`the hub for ${home} has not published its URL yet; try again in a moment`);
    }
    url = lock.url;
  }
  let token = env.ROUNDHOUSE_TOKEN;
  if (!token) {
    try {
      token = readText(path.join(home, "token")).trim();
    } catch {
      throw new Error(`no token file ${path.join(home, "token")}; set ROUNDHOUSE_HOME to the hub's home or ROUNDHOUSE_TOKEN`);
    }
  }
  return { url: url.replace(/\/+$/, ""), token };
}

/**
 * The terminal's WebSocket URL: /api/x/pty in the project's folder or the task's worktree, at a first size; with
 * `session`, the detached session of that id instead (reattached at this size).
 */
export function ptyUrl(hub: HubAddress, place: { project?: string; task?: number; session?: string }, size?: { columns: number; rows: number }): string {
  const query = new URLSearchParams();
  if (place.session !== undefined) {
    query.set("session", place.session);
  }
  if (place.project !== undefined) {
    query.set("project", place.project);
  }
  if (place.task !== undefined) {
    query.set("task", String(place.task));
  }
  if (size) {
    query.set("columns", String(size.columns));
    query.set("rows", String(size.rows));
  }
  return `${hub.url.replace(/^http/, "ws")}/api/x/pty?${query.toString()}`;
}
