package dev.roundhouse.workspace;

/** What the sweep did, or would do, with one task's workspace. */
public enum SweepAction { WOULD_REMOVE, REMOVED, KEPT }
