package dev.roundhouse.workspace;

/** An uncommitted file's state in a worktree. */
public enum FileState { ADDED, MODIFIED, DELETED, UNTRACKED, CONFLICTING }
