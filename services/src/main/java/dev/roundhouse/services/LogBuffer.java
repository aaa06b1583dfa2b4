package dev.roundhouse.services;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One service's recent output: a ring of at most {@code maxLines} lines and {@code maxChars} characters,
 * each line numbered with an offset that only grows. The writer never waits for readers: it appends,
 * drops the oldest lines past either bound and wakes followers. A reader asking for an offset that was
 * dropped gets a marker line saying how many it missed, then the oldest line kept.
 *
 * <p>Thread-safe: one lock, held only to copy lines in or out (never while calling anyone).
 */
final class LogBuffer {
  private final String service;
  private final int maxLines;
  private final long maxChars;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition appended = lock.newCondition();
  private final ArrayDeque<LogLine> lines = new ArrayDeque<>();
  private long nextOffset;
  private long chars;

  LogBuffer(String service, int maxLines, long maxChars) {
    if (maxLines < 1 || maxChars < 1) {
      throw new ServiceException("the log buffer of " + service + " needs room for at least one line");
    }
    this.service = service;
    this.maxLines = maxLines;
    this.maxChars = maxChars;
  }

  LogLine append(LogLine.Stream stream, String text, Instant at) {
    lock.lock();
    try {
      LogLine line = new LogLine(nextOffset++, stream, text, at);
      lines.addLast(line);
      chars += text.length();
      while (lines.size() > maxLines || (chars > maxChars && lines.size() > 1)) {
        chars -= lines.removeFirst().text().length();
      }
      appended.signalAll();
      return line;
    } finally {
      lock.unlock();
    }
  }

  long nextOffset() {
    lock.lock();
    try {
      return nextOffset;
    } finally {
      lock.unlock();
    }
  }

  /** Up to {@code max} lines from {@code from} on, without waiting. A negative {@code from} counts back from the end. */
  LogChunk read(long from, int max) {
    lock.lock();
    try {
      long first = nextOffset - lines.size();
      long start = from < 0 ? Math.max(first, nextOffset + from) : Math.min(from, nextOffset);
      List<LogLine> out = new ArrayList<>();
      long missed = 0;
      if (start < first) {
        missed = first - start;
        out.add(new LogLine(start, LogLine.Stream.MARKER,
            "[" + missed + " line" + (missed == 1 ? "" : "s") + " skipped: the reader fell behind the log buffer]",
            lines.isEmpty() ? Instant.EPOCH : lines.peekFirst().at()));
        start = first;
      }
      Iterator<LogLine> iterator = lines.iterator();
      for (long skip = start - first; skip > 0; skip--) {
        iterator.next();
      }
      long next = start;
      while (iterator.hasNext() && out.size() - (missed > 0 ? 1 : 0) < Math.max(1, max)) {
        out.add(iterator.next());
        next++;
      }
      return new LogChunk(service, out, missed, next);
    } finally {
      lock.unlock();
    }
  }

  /** Like {@link #read}, but waits up to {@code wait} for a line at or after {@code from} when there is none yet. */
  LogChunk follow(long from, int max, Duration wait) throws InterruptedException {
    lock.lock();
    try {
      long remaining = wait.toNanos();
      while (from >= nextOffset && remaining > 0) {
        remaining = appended.awaitNanos(remaining);
      }
    } finally {
      lock.unlock();
    }
    return read(from, max);
  }
}
