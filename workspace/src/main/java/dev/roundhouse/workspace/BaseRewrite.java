package dev.roundhouse.workspace;

/**
 * Whether a task's base was rewritten under it (a force-push upstream, a reset).
 *
 * @param rewritten    the recorded base commit is no longer contained in {@code ref}
 * @param recordedTip  the base commit recorded when the worktree was cut
 * @param ref          the ref that was checked ({@code main} or {@code origin/main})
 * @param currentTip   that ref's tip now
 * @param message      a sentence for the user
 */
public record BaseRewrite(boolean rewritten, String recordedTip, String ref, String currentTip, String message) {}
