package dev.roundhouse.hub.model;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * What shrinking the database file did: its size before and after (the main file, measured with the WAL
 * checkpointed into it), and whether this was the one-time full {@code VACUUM} that turns incremental
 * vacuum on for a database created without it. Immutable.
 */
public record Compaction(
    @JsonPropertyDescription("Size of the database file before, in bytes (WAL checkpointed first)") long fileBytesBefore,
    @JsonPropertyDescription("Size of the database file after, in bytes") long fileBytesAfter,
    @JsonPropertyDescription("True when this was the one-time full VACUUM that switched the file to incremental vacuum")
        boolean fullVacuum) {

  /** How many bytes the file gave back to the file system (0 when it did not shrink). */
  public long bytesFreed() {
    return Math.max(0, fileBytesBefore - fileBytesAfter);
  }
}
