package dev.roundhouse.services;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads one output stream of a process as fast as it comes, splits it into lines (long lines are cut at
 * {@code maxLineBytes}) and hands each line on. It runs on a virtual thread of its own and never waits for
 * a reader, so a service is never slowed by who watches it. Not thread-safe: one thread per stream.
 */
final class OutputPump implements Runnable {
  private final InputStream input;
  private final int maxLineBytes;
  private final Consumer<String> lines;

  OutputPump(InputStream input, int maxLineBytes, Consumer<String> lines) {
    this.input = input;
    this.maxLineBytes = maxLineBytes;
    this.lines = lines;
  }

  @Override
  public void run() {
    byte[] buffer = new byte[16 * 1024];
    byte[] line = new byte[maxLineBytes];
    int length = 0;
    try (input) {
      int read;
      while ((read = input.read(buffer)) != -1) {
        for (int i = 0; i < read; i++) {
          byte b = buffer[i];
          if (b == '\n') {
            emit(line, length);
            length = 0;
          } else {
            if (length == line.length) {
              emit(line, length);
              length = 0;
            }
            line[length++] = b;
          }
        }
      }
    } catch (IOException e) {
      // The stream closes when the process ends or is killed; what was read so far is kept.
    }
    if (length > 0) {
      emit(line, length);
    }
  }

  private void emit(byte[] line, int length) {
    int end = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
    lines.accept(new String(line, 0, end, StandardCharsets.UTF_8));
  }
}
