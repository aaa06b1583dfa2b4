package dev.roundhouse.services;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Reads one output stream of a process as fast as it comes, splits it into lines (long lines are cut at
 * {@code maxLineBytes}, a trailing carriage return is dropped) and hands on the lines of each read together, so
 * whoever stores them takes its lock once per read rather than once per line. It runs on a virtual thread of its
 * own and never waits for a reader, so a service is never slowed by who watches it.
 *
 * <p>Lines are found by scanning the bytes read for newlines; a line that lies whole in one read and fits the limit
 * is decoded straight from the read buffer, and only a line split across reads (or cut) is copied aside first.
 *
 * <p>After a short read the pump pauses ({@link #LINGER}) before reading again, so that a service printing a flood
 * a line per write (Python under {@code PYTHONUNBUFFERED}, a logger that flushes each record) is read in batches of
 * a hundred lines or more rather than a few. A read that finds the pipe empty puts this thread to sleep, and the
 * service's next write must wake it; those wake-ups, not the copying, are what slowed such a service down. In
 * {@code roundhouse bench services} with no viewers, the warm-up's and the measured run's 2 million lines took
 * 437,000 reads and the service ran at 0.62 – 0.72x its speed to {@code /dev/null}; with the pause, 11,300 reads,
 * 0.70 – 0.89x, and the hub's CPU per MB fell from 16.8 to 7.5 – 9.5 ms. The pause is short enough that a 64 KiB
 * pipe does not fill meanwhile at such speeds; a read that comes back large ({@link #FLOOD_BYTES}: the pipe filled while we were
 * away) is followed at once, so a faster writer is never held back by it.
 *
 * <p>Not thread-safe: one thread per stream. The list handed on is reused after the consumer returns.
 */
final class OutputPump implements Runnable {
  private static final int READ_BYTES = 64 * 1024;
  /** A read at least this large means the pipe filled while we were away: read again at once. */
  static final int FLOOD_BYTES = 32 * 1024;
  /** How long to let a service's writes gather in the pipe after a short read. */
  static final Duration LINGER = Duration.ofNanos(300_000);
  /** The pause after a short read in production: {@link #LINGER}, parked (an interrupt only cuts it short). */
  static final Runnable PARK = OutputPump::park;

  private final InputStream input;
  private final int maxLineBytes;
  private final Runnable linger;
  private final Consumer<List<String>> lines;
  private final List<String> batch = new ArrayList<>();
  private final byte[] partial;
  private int length;

  /** {@code linger} runs after each short read ({@link #PARK}, or what a test counts). */
  OutputPump(InputStream input, int maxLineBytes, Runnable linger, Consumer<List<String>> lines) {
    this.input = input;
    this.maxLineBytes = maxLineBytes;
    this.linger = linger;
    this.lines = lines;
    this.partial = new byte[maxLineBytes];
  }

  @Override
  public void run() {
    byte[] buffer = new byte[READ_BYTES];
    try (input) {
      int read;
      while ((read = input.read(buffer)) != -1) {
        int start = 0;
        for (int i = 0; i < read; i++) {
          if (buffer[i] == '\n') {
            if (length == 0 && i - start <= maxLineBytes) {
              emit(buffer, start, i - start);
            } else {
              carry(buffer, start, i);
              emit(partial, 0, length);
              length = 0;
            }
            start = i + 1;
          }
        }
        carry(buffer, start, read); // the rest waits for its newline
        handOn();
        if (read < FLOOD_BYTES) {
          linger.run(); // pacing, not waiting for an event: see the class comment
        }
      }
    } catch (IOException e) {
      // The stream closes when the process ends or is killed; what was read so far is kept.
    }
    if (length > 0) {
      emit(partial, 0, length);
      length = 0;
    }
    handOn();
  }

  /** Adds bytes of an unfinished line, emitting a piece each time the line reaches the limit. */
  private void carry(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (length == partial.length) {
        emit(partial, 0, length);
        length = 0;
      }
      partial[length++] = bytes[i];
    }
  }

  /** Parks for {@link #LINGER}; a park can return early without cause, so it parks again for what is left. */
  private static void park() {
    long deadline = System.nanoTime() + LINGER.toNanos();
    long left = LINGER.toNanos();
    while (left > 0 && !Thread.currentThread().isInterrupted()) {
      LockSupport.parkNanos(left);
      left = deadline - System.nanoTime();
    }
  }

  private void emit(byte[] bytes, int from, int count) {
    int end = count > 0 && bytes[from + count - 1] == '\r' ? count - 1 : count;
    batch.add(new String(bytes, from, end, StandardCharsets.UTF_8));
  }

  private void handOn() {
    if (!batch.isEmpty()) {
      lines.accept(batch);
      batch.clear();
    }
  }
}
