package dev.roundhouse.hub.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a byte stream, each held in memory only up to a cap: a longer line keeps its first
 * {@code prefix} bytes (where a message's {@code id} and {@code method} are), is read on to its end and thrown
 * away, and is reported as {@link TooLong} with its length. So a client that sends 200 MB without a newline
 * costs a stdio face (MCP, ACP) no more than the cap. Not thread-safe: one reader reads it.
 */
public final class BoundedLines {
  /** A line read. */
  public sealed interface Line permits Text, TooLong {}

  /** A line within the cap, decoded as UTF-8, without its line end. */
  public record Text(String text) implements Line {}

  /** A line of {@code length} bytes, past the cap: only its first bytes were kept. */
  public record TooLong(long length, byte[] prefix) implements Line {}

  private final InputStream in;
  private final int max;
  private final int prefix;
  private final byte[] buffer = new byte[65_536];
  private int position;
  private int limit;

  /** Lines of at most {@code max} bytes; of a longer one, the first {@code prefix} bytes are kept. */
  public BoundedLines(InputStream in, int max, int prefix) {
    this.in = in;
    this.max = max;
    this.prefix = Math.min(prefix, max);
  }

  /** The next line, or null at the end of the stream. */
  public Line next() throws IOException {
    byte[] line = new byte[Math.min(max, 8192)];
    int kept = 0;
    long length = 0;
    boolean any = false;
    while (true) {
      if (position == limit) {
        limit = Math.max(0, in.read(buffer, 0, buffer.length));
        position = 0;
        if (limit == 0) {
          return any ? line(line, kept, length) : null;
        }
      }
      any = true;
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      int count = position - start;
      if (length + count <= max) {
        if (kept + count > line.length) {
          line = Arrays.copyOf(line, (int) Math.min(max, Math.max(kept + count, 2L * line.length)));
        }
        System.arraycopy(buffer, start, line, kept, count);
        kept += count;
      } else if (kept > prefix) {
        line = Arrays.copyOf(line, prefix); // past the cap: only the prefix is kept, the rest let go
        kept = prefix;
      } else if (kept < prefix) {
        int more = Math.min(count, prefix - kept);
        line = Arrays.copyOf(line, prefix);
        System.arraycopy(buffer, start, line, kept, more);
        kept += more;
      }
      length += count;
      if (position < limit) {
        position++; // the newline
        return line(line, kept, length);
      }
    }
  }

  private Line line(byte[] line, int kept, long length) {
    if (length > max) {
      return new TooLong(length, Arrays.copyOf(line, kept));
    }
    int end = kept > 0 && line[kept - 1] == '\r' ? kept - 1 : kept;
    return new Text(new String(line, 0, end, StandardCharsets.UTF_8));
  }
}
