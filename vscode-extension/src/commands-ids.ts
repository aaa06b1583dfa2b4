// The ids of the commands the extension registers (commands.ts); kept free of vscode so the package test
// can check package.json contributes each of them.
export const COMMAND_IDS = [
  "roundhouse.openBoard", "roundhouse.refresh", "roundhouse.newTask", "roundhouse.startTurn", "roundhouse.sendMessage",
  "roundhouse.stopTurn", "roundhouse.openTranscript", "roundhouse.moveTask", "roundhouse.editTask",
  "roundhouse.acceptSuggestion", "roundhouse.approve", "roundhouse.deny", "roundhouse.answerDecision",
  "roundhouse.showDecision", "roundhouse.showNeedsYou", "roundhouse.restartServer",
] as const;
