// What the extension keeps about a remote hub (roundhouse.hub.url): where its token lives in SecretStorage,
// and how a failed connection attempt is read by the Reconnector. No vscode here.

import { HubRefused, bridgeUrl } from "../protocol/hubSocket";
import { Failure } from "./reconnect";

/** The SecretStorage key of the token for the hub at `hubUrl` (one per hub: switching URLs keeps each). */
export function hubTokenKey(hubUrl: string): string {
  let target: string;
  try {
    target = bridgeUrl(hubUrl);
  } catch {
    target = hubUrl.trim();
  }
  return `roundhouse.hub.token:${target}`;
}

/**
 * A refused token means signing in again (no retry); any other refusal (a foreign Origin, a Host the hub does
 * not accept, no /api/lsp on an older hub) is final until the settings change; anything else (the hub is
 * down, restarting, the network) is retried.
 */
export function remoteFailure(error: unknown): Failure {
  if (error instanceof HubRefused) {
    if (error.needsSignIn) {
      return { message: error.message, signIn: true };
    }
    return { message: error.message, final: error.status !== 502 && error.status !== 503 && error.status !== 504 };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}
