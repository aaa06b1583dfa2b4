package dev.roundhouse.services.hub;

import dev.roundhouse.services.LogLine;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The SSE events of one service's recent log lines, each encoded once and shared by every viewer that follows the log:
 * with ten viewers, a line is turned into bytes once rather than ten times (the cost that dominated
 * {@code roundhouse bench services}). A fixed ring of slots by offset, at least as many as the log keeps lines, so
 * viewers spread over the whole log (a loaded machine schedules them in bursts) never evict each other's lines; a
 * slot holds the line it was encoded from, and a hit is that very line (identity), so a service removed and defined
 * again, whose offsets start over, never gets another line's bytes. Lines read together share one {@code Instant}
 * (see {@code OutputPump}), whose text is kept for the next line.
 *
 * <p>Thread-safe: slots are read and written atomically; two viewers racing on one line both encode it, to the same
 * bytes, and one of them is kept.
 */
final class SseLines {
  private static final byte[] ID = "id: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MIDDLE = "\nevent: line\ndata: {\"offset\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] STDOUT = ",\"stream\":\"stdout\",\"text\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] STDERR = ",\"stream\":\"stderr\",\"text\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] AT = "\",\"at\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END = "\"}\n\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private record Encoded(LogLine line, byte[] event) {}

  private record Stamp(Instant at, byte[] text) {}

  private final AtomicReferenceArray<Encoded> slots;
  private final int mask;
  private volatile Stamp lastStamp = new Stamp(Instant.EPOCH, Instant.EPOCH.toString().getBytes(StandardCharsets.US_ASCII));

  /** For a log that keeps at most {@code lines} lines. */
  SseLines(int lines) {
    int size = Integer.highestOneBit(Math.max(2, lines) * 2 - 1); // the next power of two
    this.slots = new AtomicReferenceArray<>(size);
    this.mask = size - 1;
  }

  int slots() {
    return slots.length();
  }

  /** The line's event ({@code id}, {@code event: line}, its JSON as {@code data}), from the ring or encoded now. */
  byte[] event(LogLine line) {
    int slot = (int) (line.offset() & mask);
    Encoded cached = slots.get(slot);
    if (cached != null && cached.line() == line) {
      return cached.event();
    }
    Stamp stamp = lastStamp;
    if (stamp.at() != line.at()) {
      stamp = new Stamp(line.at(), line.at().toString().getBytes(StandardCharsets.US_ASCII));
      lastStamp = stamp;
    }
    byte[] event = encode(line, stamp.text());
    slots.set(slot, new Encoded(line, event));
    return event;
  }

  /** A line's event on its own, as {@link #event} writes it (for tests). */
  static byte[] encode(LogLine line) {
    return encode(line, line.at().toString().getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * Written by hand: the same JSON as the hub's mapper gives a {@link LogLine} (a test holds them equal), in UTF-8,
   * without the mapper's reflection or an intermediate string. The text is taken as UTF-8 bytes (the JDK's
   * intrinsic; a lone surrogate becomes '?'), and only {@code "}, {@code \\} and control bytes are escaped: every
   * byte of a multi-byte character is 0x80 or above and passes as it is.
   */
  private static byte[] encode(LogLine line, byte[] at) {
    byte[] text = line.text().getBytes(StandardCharsets.UTF_8);
    int extra = 0;
    for (byte b : text) {
      if (b == '"' || b == '\\' || b == '\n' || b == '\r' || b == '\t') {
        extra += 1;
      } else if (b >= 0 && b < 0x20) {
        extra += 5;
      }
    }
    byte[] offset = Long.toString(line.offset()).getBytes(StandardCharsets.US_ASCII);
    byte[] stream = line.stream() == LogLine.Stream.STDERR ? STDERR : STDOUT;
    byte[] out = new byte[ID.length + offset.length + MIDDLE.length + offset.length + stream.length + text.length + extra
        + AT.length + at.length + END.length];
    int next = put(out, 0, ID);
    next = put(out, next, offset);
    next = put(out, next, MIDDLE);
    next = put(out, next, offset);
    next = put(out, next, stream);
    if (extra == 0) {
      next = put(out, next, text);
    } else {
      next = putEscaped(out, next, text);
    }
    next = put(out, next, AT);
    next = put(out, next, at);
    put(out, next, END);
    return out;
  }

  private static int put(byte[] out, int at, byte[] bytes) {
    System.arraycopy(bytes, 0, out, at, bytes.length);
    return at + bytes.length;
  }

  private static int putEscaped(byte[] out, int at, byte[] text) {
    for (byte b : text) {
      if (b == '"' || b == '\\') {
        out[at++] = '\\';
        out[at++] = b;
      } else if (b == '\n' || b == '\r' || b == '\t') {
        out[at++] = '\\';
        out[at++] = (byte) (b == '\n' ? 'n' : b == '\r' ? 'r' : 't');
      } else if (b >= 0 && b < 0x20) {
        out[at++] = '\\';
        out[at++] = 'u';
        out[at++] = '0';
        out[at++] = '0';
        out[at++] = HEX[b >> 4];
        out[at++] = HEX[b & 0xf];
      } else {
        out[at++] = b;
      }
    }
    return at;
  }
}
