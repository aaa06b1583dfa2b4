package dev.roundhouse.lspbridge.lsp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The bridge's output, {@code Content-Length} frames as LSP4J writes them on stdout, turned back into one
 * message each for a WebSocket text frame: the header block is read up to its blank line, then exactly the
 * announced body, which goes to {@link Sender#send} whole. The bytes may come in any pieces.
 *
 * <p>Thread-safety: not thread-safe; LSP4J's writer serialises its writes on the stream (one message at a
 * time, under its own lock), so only one thread writes at once.
 */
final class SocketOutput extends OutputStream {
  /** Sends one message; blocks until it is on its way, throws when the socket is gone. */
  interface Sender {
    void send(String message) throws IOException;
  }

  private static final String CONTENT_LENGTH = "content-length:";

  private final Sender sender;
  private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
  /** The body's length once the header block has been read; -1 while reading headers. */
  private int bodyLength = -1;

  SocketOutput(Sender sender) {
    this.sender = sender;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    pending.write(bytes, offset, length);
    while (drainOne()) {
      // one message sent per turn; go on while whole ones are buffered
    }
  }

  /** Sends the message buffered whole, if there is one; false when more bytes are needed. */
  private boolean drainOne() throws IOException {
    byte[] buffered = pending.toByteArray();
    if (bodyLength < 0) {
      int end = headerEnd(buffered);
      if (end < 0) {
        return false;
      }
      bodyLength = length(new String(buffered, 0, end, StandardCharsets.US_ASCII));
      pending.reset();
      pending.write(buffered, end + 4, buffered.length - end - 4);
      return true;
    }
    if (buffered.length < bodyLength) {
      return false;
    }
    String message = new String(buffered, 0, bodyLength, StandardCharsets.UTF_8);
    pending.reset();
    pending.write(buffered, bodyLength, buffered.length - bodyLength);
    bodyLength = -1;
    sender.send(message);
    return true;
  }

  private static int headerEnd(byte[] bytes) {
    for (int i = 0; i + 3 < bytes.length; i++) {
      if (bytes[i] == '\r' && bytes[i + 1] == '\n' && bytes[i + 2] == '\r' && bytes[i + 3] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static int length(String headers) throws IOException {
    for (String line : headers.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith(CONTENT_LENGTH)) {
        try {
          return Integer.parseInt(line.substring(CONTENT_LENGTH.length()).strip());
        } catch (NumberFormatException e) {
          break;
        }
      }
    }
    throw new IOException("the bridge wrote a header block without a Content-Length: " + headers);
  }
}
