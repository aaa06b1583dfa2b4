package dev.roundhouse.services;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
 * <p>Not thread-safe: one thread per stream. The list handed on is reused after the consumer returns.
 */
final class OutputPump implements Runnable {
  private static final int READ_BYTES = 64 * 1024;

  private final InputStream input;
  private final int maxLineBytes;
  private final Consumer<List<String>> lines;
  private final List<String> batch = new ArrayList<>();
  private final byte[] partial;
  private int length;

  OutputPump(InputStream input, int maxLineBytes, Consumer<List<String>> lines) {
    this.input = input;
    this.maxLineBytes = maxLineBytes;
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
