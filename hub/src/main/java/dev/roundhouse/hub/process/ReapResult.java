package dev.roundhouse.hub.process;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What {@link ProcessReaper#reap} did with one stored record.
 *
 * @param record the record
 * @param outcome killed, gone, or recycled (the pid now belongs to another process, left alone)
 * @param killed the pids that were signalled (the leader and members, or only marked escapees)
 * @param message a sentence for the log and for {@code doctor}
 */
public record ReapResult(ProcessRecord record, Outcome outcome, List<Long> killed, String message) {
  public ReapResult {
    killed = List.copyOf(killed);
  }

  public enum Outcome {
    /** Leftovers were found and ended. */
    @JsonProperty("killed")
    KILLED,
    /** Nothing of it was left (or it was recorded before the last reboot). */
    @JsonProperty("gone")
    GONE,
    /** Its pid belongs to another process now; that process was not touched. */
    @JsonProperty("recycled")
    RECYCLED
  }
}
