package dev.roundhouse.drivers.openai;

/**
 * Keeps a command's output within a budget: the first part and the last part, with a line saying how much
 * was left out between them (the end of a build log is where the error usually is).
 *
 * <p>Thread-safe: appends come from the reader thread, {@link #text()} from the waiting one.
 */
final class OutputCapture {
  private final int headLimit;
  private final int tailLimit;
  private final StringBuilder head = new StringBuilder();
  private final StringBuilder tail = new StringBuilder();
  private long total;

  /** @param maxChars the most characters {@link #text()} keeps, besides the omission line */
  OutputCapture(int maxChars) {
    this.tailLimit = maxChars / 4;
    this.headLimit = maxChars - tailLimit;
  }

  /**
   * Adds output; returns the part that fits in the head (what may be shown live), empty once it is full.
   */
  synchronized String append(String text) {
    total += text.length();
    int room = headLimit - head.length();
    String shown = text.substring(0, Math.max(0, Math.min(room, text.length())));
    head.append(shown);
    if (shown.length() < text.length()) {
      tail.append(text, shown.length(), text.length());
      if (tail.length() > 2 * tailLimit) {
        tail.delete(0, tail.length() - tailLimit);
      }
    }
    return shown;
  }

  /** True once output went past the head. */
  synchronized boolean truncated() {
    return total > headLimit;
  }

  /** All output if it fit; otherwise the head, a line saying how many characters were left out, and the tail. */
  synchronized String text() {
    if (total <= headLimit + tailLimit) {
      return head.toString() + tail;
    }
    String end = tail.length() > tailLimit ? tail.substring(tail.length() - tailLimit) : tail.toString();
    long omitted = total - head.length() - end.length();
    return head + "\n[... " + omitted + " characters of output left out ...]\n" + end;
  }
}
