package dev.roundhouse.workspace;

/** @param reason a sentence: the proof that the work landed, or why everything was kept */
public record ReclaimResult(ReclaimOutcome outcome, String reason) {}
