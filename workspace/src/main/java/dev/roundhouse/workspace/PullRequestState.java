package dev.roundhouse.workspace;

/** Where a pull request stands on its forge. */
public enum PullRequestState { OPEN, MERGED, CLOSED }
