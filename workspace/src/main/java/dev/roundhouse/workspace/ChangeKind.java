package dev.roundhouse.workspace;

/** How a file changed between the merge-base and the task. */
public enum ChangeKind { ADDED, MODIFIED, DELETED, RENAMED }
