// Method names of the bridge's roundhouse/* extension (docs/lsp-protocol.md).

export const Requests = {
  operations: "roundhouse/operations",
  call: "roundhouse/call",
  board: "roundhouse/board",
  task: "roundhouse/task",
  decisions: "roundhouse/decisions",
  answerDecision: "roundhouse/answerDecision",
  subscribe: "roundhouse/subscribe",
  unsubscribe: "roundhouse/unsubscribe",
  watchTask: "roundhouse/watchTask",
  unwatchTask: "roundhouse/unwatchTask",
  transcript: "roundhouse/transcript",
} as const;

export const Notifications = {
  event: "roundhouse/event",
  decision: "roundhouse/decision",
  decisionClosed: "roundhouse/decisionClosed",
  connection: "roundhouse/connection",
  taskEvent: "roundhouse/taskEvent",
  taskConnection: "roundhouse/taskConnection",
} as const;

/** The protocol version this extension speaks (capabilities.experimental.roundhouse.version). */
export const PROTOCOL_VERSION = 1;

/** What the extension puts under capabilities.experimental so the bridge sends roundhouse/* notifications. */
export const CLIENT_CAPABILITY = { roundhouse: { version: PROTOCOL_VERSION } } as const;
