// The ids of the commands the extension registers (commands.ts); kept free of vscode so the package test
// can check package.json contributes each of them.

/** The task workspace's and the services' commands (workspaceCommands.ts). */
export const WORKSPACE_COMMAND_IDS = [
  "roundhouse.openChange", "roundhouse.mergeTask", "roundhouse.syncTask", "roundhouse.createPullRequest", "roundhouse.reviewTask",
  "roundhouse.startService", "roundhouse.stopService", "roundhouse.restartService", "roundhouse.showServiceLogs",
] as const;

/** The Schedules and Runbooks views' commands (scheduleCommands.ts). */
export const SCHEDULE_COMMAND_IDS = [
  "roundhouse.refreshSchedules", "roundhouse.pauseSchedule", "roundhouse.resumeSchedule", "roundhouse.previewSchedule",
  "roundhouse.deleteSchedule", "roundhouse.openRunTranscript", "roundhouse.runRunbook", "roundhouse.deleteRunbook",
] as const;

/** The hub terminal's command (terminalCommands.ts). */
export const TERMINAL_COMMAND_IDS = ["roundhouse.openTerminalInTask"] as const;

/** The hub terminal's profile, in contributes.terminal.profiles. */
export const TERMINAL_PROFILE_ID = "roundhouse.terminal";

/** The commands that choose the hub: a remote one's sign-in, or the local one (hubCommands.ts). */
export const HUB_COMMAND_IDS = ["roundhouse.signIn", "roundhouse.signOut", "roundhouse.startLocalHub"] as const;

export const COMMAND_IDS = [
  "roundhouse.openBoard", "roundhouse.refresh", "roundhouse.newTask", "roundhouse.startTurn", "roundhouse.sendMessage",
  "roundhouse.stopTurn", "roundhouse.openTranscript", "roundhouse.moveTask", "roundhouse.editTask",
  "roundhouse.acceptSuggestion", "roundhouse.approve", "roundhouse.deny", "roundhouse.answerDecision",
  "roundhouse.showDecision", "roundhouse.showNeedsYou", "roundhouse.restartServer", "roundhouse.showOutput", "roundhouse.answerFromPrompt",
  ...WORKSPACE_COMMAND_IDS, ...SCHEDULE_COMMAND_IDS, ...TERMINAL_COMMAND_IDS, ...HUB_COMMAND_IDS,
] as const;
