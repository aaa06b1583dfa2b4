package dev.roundhouse.workspace;

/** One uncommitted file; {@code staged} when the change is in the index. */
public record StatusEntry(String path, FileState state, boolean staged) {}
