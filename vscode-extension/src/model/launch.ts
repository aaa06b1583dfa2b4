// What to run for the bridge, checked, and what to tell the user when it cannot start. No vscode here.

export interface LaunchSettings {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** Reads the raw settings values, refusing bad ones with the setting named. */
export function launchSettings(command: unknown, args: unknown, env: unknown): LaunchSettings {
  if (typeof command !== "string" || command.trim() === "") {
    throw new Error("roundhouse.server.command must be the roundhouse command (a name on PATH or a full path), not " + JSON.stringify(command));
  }
  if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) {
    throw new Error("roundhouse.server.args must be a list of strings, such as [\"lsp\"], not " + JSON.stringify(args));
  }
  const environment: Record<string, string> = {};
  if (env !== undefined && env !== null) {
    if (typeof env !== "object" || Array.isArray(env)) {
      throw new Error("roundhouse.server.env must be an object of strings, such as {\"ROUNDHOUSE_HOME\": \"/path\"}, not " + JSON.stringify(env));
    }
    for (const [name, value] of Object.entries(env as Record<string, unknown>)) {
      if (typeof value !== "string") {
        throw new Error(`roundhouse.server.env.${name} must be a string, not ${JSON.stringify(value)}`);
      }
      environment[name] = value;
    }
  }
  return { command: command.trim(), args: args as string[], env: environment };
}

/** The message for a bridge that could not start or stopped at once, with the fix. */
export function launchProblem(settings: LaunchSettings, reason: string): string {
  const line = [settings.command, ...settings.args].join(" ");
  if (/ENOENT|not found|No such file/i.test(reason)) {
    return `Roundhouse: \`${line}\` could not start: ${settings.command} was not found. Install Roundhouse (see the extension README, "Install") `
      + `so that \`roundhouse\` is on PATH, or set roundhouse.server.command to the full path of the roundhouse script.`;
  }
  if (/EACCES|permission denied/i.test(reason)) {
    return `Roundhouse: \`${line}\` could not start: ${settings.command} is not executable. Make it executable (chmod +x) or set roundhouse.server.command to the roundhouse script.`;
  }
  if (/Pending response rejected|connection got disposed|Connection is closed/i.test(reason)) {
    reason = "it exited before it answered";
  }
  return `Roundhouse: \`${line}\` stopped: ${reason}. See the Roundhouse output for what it said; check roundhouse.server.command and roundhouse.server.args `
    + `(with --no-start it needs a running hub: start one with \`roundhouse serve\`; it needs a JDK 21+: set ROUNDHOUSE_JAVA_HOME in roundhouse.server.env).`;
}

/** The part of vscode-languageclient's client that reports its errors (log, and a notification). */
export interface ErrorReporter {
  error(message: string, data?: unknown, showNotification?: boolean | "force"): void;
}

/**
 * Makes the client log its errors without a notification of its own. A failed start is otherwise shown
 * twice: the client's generic "couldn't create connection to server" (forced, whatever the options say) and
 * the extension's sentence naming the setting to change. The extension shows its own, once, and closes it
 * when the bridge runs again.
 */
export function quietErrors<C extends ErrorReporter>(client: C): C {
  const report = client.error.bind(client);
  client.error = (message: string, data?: unknown) => report(message, data, false);
  return client;
}
