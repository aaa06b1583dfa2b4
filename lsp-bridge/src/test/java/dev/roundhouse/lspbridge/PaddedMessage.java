package dev.roundhouse.lspbridge;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A message of any length, made as it is read: {@code head}, then {@code padding} bytes of {@code x}, then
 * {@code tail}. A test sends 200 MB through it without holding 200 MB. Not thread-safe: one reader.
 */
public final class PaddedMessage extends InputStream {
  private final byte[] head;
  private final byte[] tail;
  private final long length;
  private long position;

  public PaddedMessage(String head, long padding, String tail) {
    this.head = head.getBytes(StandardCharsets.UTF_8);
    this.tail = tail.getBytes(StandardCharsets.UTF_8);
    this.length = this.head.length + padding + this.tail.length;
  }

  /** The JSON-RPC request {@code {"jsonrpc":"2.0","id":id,"method":method,"params":{"pad":"xxx…"}}} of exactly {@code bytes} bytes. */
  public static PaddedMessage request(int id, String method, long bytes) {
    String head = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{\"pad\":\"";
    String tail = "\"}}";
    return new PaddedMessage(head, bytes - head.length() - tail.length(), tail);
  }

  public long length() {
    return length;
  }

  @Override
  public int read() {
    if (position == length) {
      return -1;
    }
    long at = position++;
    if (at < head.length) {
      return head[(int) at];
    }
    long fromTail = at - (length - tail.length);
    return fromTail >= 0 ? tail[(int) fromTail] : 'x';
  }

  @Override
  public int read(byte[] buffer, int offset, int count) {
    if (position == length) {
      return -1;
    }
    int n = (int) Math.min(count, length - position);
    long padEnd = length - tail.length;
    for (int i = 0; i < n; i++) {
      long at = position + i;
      buffer[offset + i] = at < head.length ? head[(int) at] : at >= padEnd ? tail[(int) (at - padEnd)] : (byte) 'x';
    }
    position += n;
    return n;
  }
}
