package dev.roundhouse.services;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/**
 * One line a service printed, or a marker a reader is given in place of lines it missed.
 *
 * @param offset the line's position in the service's log since the supervisor started (markers carry the
 *     offset of the first missed line)
 * @param stream stdout, stderr, or marker
 * @param text the line without its line break (long lines are cut into several)
 * @param at when the line was read
 */
public record LogLine(long offset, Stream stream, String text, Instant at) {
  public enum Stream {
    @JsonProperty("stdout")
    STDOUT,
    @JsonProperty("stderr")
    STDERR,
    @JsonProperty("marker")
    MARKER
  }
}
