package dev.roundhouse.services;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One service's recent output: a ring of at most {@code maxLines} lines and {@code maxChars} characters,
 * each line numbered with an offset that only grows. The writer never waits for readers: it appends,
 * drops the oldest lines past either bound and wakes followers. A reader asking for an offset that was
 * dropped gets a marker line saying how many it missed, then the oldest line kept.
 *
 * <p>Cost: the lines live in an array used as a ring (grown by doubling up to {@code maxLines}), so a read from any
 * offset starts at its line directly. A follower that finds fewer lines than it asked for waits up to
 * {@link #LINGER} more for the batch to fill: a service printing a flood is then read in batches (a wake and a
 * flush per batch, not per line), and a quiet one's lines arrive at most that much later. The writer appends the
 * lines of one read at once ({@link #appendAll}), wakes caught-up followers once per such batch, and wakes lingering
 * ones only once the first of their batches is full (each records the offset it waits for).
 *
 * <p>Thread-safe: one lock, held only to copy lines in or out (never while calling anyone).
 */
final class LogBuffer {
  private final String service;
  private final int maxLines;
  private final long maxChars;
  private final ReentrantLock lock = new ReentrantLock();
  /** How long a follower waits for more lines once it has some but fewer than it asked for. */
  static final Duration LINGER = Duration.ofMillis(10);

  private final Condition appended = lock.newCondition();
  private final Condition filling = lock.newCondition();
  /** The lines, oldest at {@code head}, {@code size} of them, in a ring. */
  private LogLine[] ring = new LogLine[16];
  private int head;
  private int size;
  private long nextOffset;
  private long chars;
  /** The offset at which the lingering follower whose batch fills first has all it asked for; MAX_VALUE: none waits. */
  private long fillAt = Long.MAX_VALUE;

  LogBuffer(String service, int maxLines, long maxChars) {
    if (maxLines < 1 || maxChars < 1) {
      throw new ServiceException("the log buffer of " + service + " needs room for at least one line");
    }
    this.service = service;
    this.maxLines = maxLines;
    this.maxChars = maxChars;
  }

  LogLine append(LogLine.Stream stream, String text, Instant at) {
    return appendAll(stream, List.of(text), at).getFirst();
  }

  /** Appends lines read together (under one lock, with one wake of the followers); the lines as stored. */
  List<LogLine> appendAll(LogLine.Stream stream, List<String> texts, Instant at) {
    List<LogLine> added = new ArrayList<>(texts.size());
    lock.lock();
    try {
      for (String text : texts) {
        LogLine line = new LogLine(nextOffset++, stream, text, at);
        if (size == ring.length && ring.length < maxLines) {
          LogLine[] grown = new LogLine[Math.min(maxLines, ring.length * 2)];
          for (int i = 0; i < size; i++) {
            grown[i] = ring[(head + i) % ring.length];
          }
          ring = grown;
          head = 0;
        }
        if (size == ring.length) {
          dropOldest();
        }
        ring[(head + size) % ring.length] = line;
        size++;
        chars += text.length();
        while (size > maxLines || (chars > maxChars && size > 1)) {
          dropOldest();
        }
        added.add(line);
      }
      if (!added.isEmpty()) {
        appended.signalAll();
      }
      if (nextOffset >= fillAt) {
        fillAt = Long.MAX_VALUE;
        filling.signalAll();
      }
      return added;
    } finally {
      lock.unlock();
    }
  }

  private void dropOldest() {
    chars -= ring[head].text().length();
    ring[head] = null;
    head = (head + 1) % ring.length;
    size--;
  }

  private LogLine at(long offset, long first) {
    return ring[(int) ((head + (offset - first)) % ring.length)];
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
      long first = nextOffset - size;
      long start = from < 0 ? Math.max(first, nextOffset + from) : Math.min(from, nextOffset);
      List<LogLine> out = new ArrayList<>();
      long missed = 0;
      if (start < first) {
        missed = first - start;
        out.add(new LogLine(start, LogLine.Stream.MARKER,
            "[" + missed + " line" + (missed == 1 ? "" : "s") + " skipped: the reader fell behind the log buffer]",
            size == 0 ? Instant.EPOCH : ring[head].at()));
        start = first;
      }
      long next = start;
      while (next < nextOffset && out.size() - (missed > 0 ? 1 : 0) < Math.max(1, max)) {
        out.add(at(next, first));
        next++;
      }
      return new LogChunk(service, out, missed, next);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Like {@link #read}, but waits up to {@code wait} for a line at or after {@code from} when there is none yet, then
   * up to {@link #LINGER} more while there are fewer than {@code max}.
   */
  LogChunk follow(long from, int max, Duration wait) throws InterruptedException {
    lock.lock();
    try {
      long remaining = wait.toNanos();
      while (from >= nextOffset && remaining > 0) {
        remaining = appended.awaitNanos(remaining);
      }
      long linger = LINGER.toNanos();
      while (from >= 0 && from < nextOffset && nextOffset - from < max && linger > 0) {
        fillAt = Math.min(fillAt, from + max);
        linger = filling.awaitNanos(linger);
      }
    } finally {
      lock.unlock();
    }
    return read(from, max);
  }
}
