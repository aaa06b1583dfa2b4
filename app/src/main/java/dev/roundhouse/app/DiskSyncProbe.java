package dev.roundhouse.app;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Measures what one durable commit costs on a folder's disk, as a baseline for the turns benchmark: appends 4
 * KiB to a scratch file and syncs its data ({@code fdatasync}), {@code samples} times. Every stored event waits
 * for one such sync (SQLite's commit with {@code synchronous=FULL}), so its tail bounds what the hub can show.
 *
 * <p>Not thread-safe; one probe at a time.
 */
final class DiskSyncProbe {
  /** Sync latencies in milliseconds. */
  record Figures(double p50Millis, double p99Millis, double maxMillis) {}

  private DiskSyncProbe() {}

  static Figures measure(Path folder, int samples) throws IOException {
    Path file = Files.createTempFile(folder, "sync-probe-", ".bin");
    long[] nanos = new long[samples];
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      ByteBuffer page = ByteBuffer.allocate(4096);
      for (int i = 0; i < samples; i++) {
        page.clear();
        channel.write(page);
        long start = System.nanoTime();
        channel.force(false);
        nanos[i] = System.nanoTime() - start;
      }
    } finally {
      Files.deleteIfExists(file);
    }
    Arrays.sort(nanos);
    return new Figures(at(nanos, 0.50), at(nanos, 0.99), nanos[samples - 1] / 1e6);
  }

  private static double at(long[] sorted, double q) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
  }
}
