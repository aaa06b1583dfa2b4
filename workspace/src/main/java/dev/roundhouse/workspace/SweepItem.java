package dev.roundhouse.workspace;

/** One line of a sweep's report: a task, what was (or would be) done, and why. */
public record SweepItem(long taskId, String branch, String path, SweepAction action, String reason) {}
