package dev.roundhouse.drivers.openai;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads server-sent events from a byte stream and hands out each event's data. Lines end in LF, CRLF or CR;
 * {@code data} lines of one event are joined with LF; comments ({@code : ping}) and the {@code event},
 * {@code id} and {@code retry} fields are skipped. Any other line is malformed for an OpenAI-compatible
 * stream and is reported rather than ignored, so a server that answers with something other than SSE is
 * named instead of silently producing nothing.
 *
 * <p>Not thread-safe: one reader thread.
 */
final class SseLines {
  /** A line that is not valid SSE; the message quotes (a shortened) line. */
  static final class MalformedSseException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedSseException(String message) {
      super(message);
    }
  }

  private final InputStream in;
  private final int maxLineBytes;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
  private long bytesRead;
  private boolean skipLineFeed;
  private boolean ended;

  SseLines(InputStream in, int maxLineBytes) {
    this.in = new BufferedInputStream(in, 8192);
    this.maxLineBytes = maxLineBytes;
  }

  /** Bytes consumed so far; 0 means the server sent nothing at all. */
  long bytesRead() {
    return bytesRead;
  }

  /**
   * The next event's data, or null when the stream has ended. An event that the stream ends in the middle
   * of (no blank line after it) is still returned.
   */
  String nextData() throws IOException, MalformedSseException {
    StringBuilder data = null;
    while (true) {
      String text = readLine();
      if (text == null) {
        return data == null ? null : data.toString();
      }
      if (text.isEmpty()) {
        if (data != null) {
          return data.toString();
        }
        continue;
      }
      if (text.startsWith(":")) {
        continue;
      }
      int colon = text.indexOf(':');
      String field = colon < 0 ? text : text.substring(0, colon);
      String value = colon < 0 ? "" : text.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      switch (field) {
        case "data" -> {
          if (data == null) {
            data = new StringBuilder(value);
          } else {
            data.append('\n').append(value);
          }
        }
        case "event", "id", "retry" -> {
          // Not used by chat completions.
        }
        default -> throw new MalformedSseException("malformed SSE line '" + shorten(text) + "' (expected 'data: ...')");
      }
    }
  }

  private String readLine() throws IOException, MalformedSseException {
    if (ended) {
      return null;
    }
    line.reset();
    while (true) {
      int b = in.read();
      if (b < 0) {
        ended = true;
        return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
      }
      bytesRead++;
      if (skipLineFeed) {
        skipLineFeed = false;
        if (b == '\n') {
          continue;
        }
      }
      if (b == '\n') {
        return line.toString(StandardCharsets.UTF_8);
      }
      if (b == '\r') {
        skipLineFeed = true;
        return line.toString(StandardCharsets.UTF_8);
      }
      if (line.size() >= maxLineBytes) {
        throw new MalformedSseException("an SSE line is longer than " + maxLineBytes + " bytes");
      }
      line.write(b);
    }
  }

  static String shorten(String text) {
    String oneLine = text.replaceAll("\\s+", " ").strip();
    return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 117) + "...";
  }
}
