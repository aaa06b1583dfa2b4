package dev.roundhouse.mcpserver;

import java.io.IOException;
import java.io.Reader;

/**
 * The lines of a stream, each held in memory only up to a cap: a longer line is read on to its end and thrown
 * away, and reported as {@link TooLong} with its length, so a client that sends 200 MB without a newline costs
 * the relay no more than the cap. Not thread-safe: one reader reads it.
 */
final class BoundedLines {
  /** The longest line kept, in characters: the hub's default body limit (1 MiB), which a longer message passes no better. */
  static final int DEFAULT_MAX = 1 << 20;

  /** A line read. */
  sealed interface Line permits Text, TooLong {}

  /** A line within the cap, without its line end. */
  record Text(String text) implements Line {}

  /** A line past the cap, of {@code length} characters, thrown away. */
  record TooLong(long length) implements Line {}

  private final Reader in;
  private final int max;
  private final char[] buffer = new char[8192];
  private int position;
  private int limit;

  BoundedLines(Reader in, int max) {
    this.in = in;
    this.max = max;
  }

  /** The next line, or null at the end of the stream. */
  Line next() throws IOException {
    StringBuilder text = new StringBuilder();
    long length = 0;
    boolean any = false;
    while (true) {
      if (position == limit) {
        limit = in.read(buffer, 0, buffer.length);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          return !any ? null : length > max ? new TooLong(length) : new Text(stripCr(text));
        }
      }
      any = true;
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      int count = position - start;
      if (length + count <= max) {
        text.append(buffer, start, count);
      } else if (text != null && !text.isEmpty()) {
        text.setLength(0);
        text.trimToSize();
      }
      length += count;
      if (position < limit) {
        position++; // the newline
        return length > max ? new TooLong(length) : new Text(stripCr(text));
      }
    }
  }

  private static String stripCr(StringBuilder text) {
    int end = text.length();
    return end > 0 && text.charAt(end - 1) == '\r' ? text.substring(0, end - 1) : text.toString();
  }
}
