package dev.roundhouse.workspace;

/**
 * One hunk of a file's unified diff; {@code text} starts with its {@code @@ -a,b +c,d @@} line.
 */
public record Hunk(int oldStart, int oldLines, int newStart, int newLines, String text) {}
