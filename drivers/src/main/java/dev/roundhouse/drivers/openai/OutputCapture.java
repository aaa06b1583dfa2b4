package dev.roundhouse.drivers.openai;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Locks;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps a command's output within a budget: the first part and the last part, with a line saying how much
 * was left out between them (the end of a build log is where the error usually is).
 *
 * <p>Thread-safe: appends come from the reader thread, {@link #text()} from the waiting one; one lock guards the
 * head, the tail and the count, and nothing is called under it.
 */
final class OutputCapture {
  private final int headLimit;
  private final int tailLimit;
  private final ReentrantLock lock = Locks.tracked("command output");

  @GuardedBy("lock")
  private final StringBuilder head = new StringBuilder();

  @GuardedBy("lock")
  private final StringBuilder tail = new StringBuilder();

  @GuardedBy("lock")
  private long total;

  /** @param maxChars the most characters {@link #text()} keeps, besides the omission line */
  OutputCapture(int maxChars) {
    this.tailLimit = maxChars / 4;
    this.headLimit = maxChars - tailLimit;
  }

  /**
   * Adds output; returns the part that fits in the head (what may be shown live), empty once it is full.
   */
  String append(String text) {
    lock.lock();
    try {
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
    } finally {
      lock.unlock();
    }
  }

  /** True once output went past the head. */
  boolean truncated() {
    lock.lock();
    try {
      return total > headLimit;
    } finally {
      lock.unlock();
    }
  }

  /** All output if it fit; otherwise the head, a line saying how many characters were left out, and the tail. */
  String text() {
    lock.lock();
    try {
      if (total <= headLimit + tailLimit) {
        return head.toString() + tail;
      }
      String end = tail.length() > tailLimit ? tail.substring(tail.length() - tailLimit) : tail.toString();
      long omitted = total - head.length() - end.length();
      return head + "\n[... " + omitted + " characters of output left out ...]\n" + end;
    } finally {
      lock.unlock();
    }
  }
}
