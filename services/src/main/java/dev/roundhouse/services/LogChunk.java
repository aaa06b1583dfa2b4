package dev.roundhouse.services;

import java.util.List;

/**
 * Lines read from a service's log. When the reader asked for lines that the bounded buffer had already
 * dropped, {@code missed} says how many and the first line is a {@link LogLine.Stream#MARKER} saying so.
 *
 * @param service the service
 * @param lines the lines, oldest first
 * @param missed how many lines were dropped before the reader got to them
 * @param nextOffset the offset to read from next
 */
public record LogChunk(String service, List<LogLine> lines, long missed, long nextOffset) {
  public LogChunk {
    lines = List.copyOf(lines);
  }
}
