package dev.roundhouse.services;

/**
 * The last {@code capacity} bytes a terminal printed, for a viewer that reattaches. Not thread-safe: the
 * owning {@link PtyTerminal} guards it with its lock.
 */
final class Scrollback {
  private final byte[] ring;
  private long total;

  Scrollback(int capacity) {
    if (capacity < 1) {
      throw new ServiceException("a terminal's scrollback needs at least one byte, not " + capacity);
    }
    this.ring = new byte[capacity];
  }

  void append(byte[] bytes, int length) {
    int start = Math.max(0, length - ring.length);
    for (int i = start; i < length; i++) {
      ring[(int) ((total + i) % ring.length)] = bytes[i];
    }
    total += length;
  }

  /** Total bytes ever appended: the offset of the next byte. */
  long total() {
    return total;
  }

  /** What is kept, oldest first. */
  byte[] snapshot() {
    int kept = (int) Math.min(total, ring.length);
    byte[] out = new byte[kept];
    long first = total - kept;
    for (int i = 0; i < kept; i++) {
      out[i] = ring[(int) ((first + i) % ring.length)];
    }
    return out;
  }
}
