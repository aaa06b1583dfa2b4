package dev.roundhouse.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogBufferTest {
  @TempDir Path dir;

  @Test
  void aReaderBehindTheRingGetsAMarkerSayingHowManyLinesItMissed() {
    LogBuffer log = new LogBuffer("web", 10, 1_000_000);
    for (int i = 0; i < 25; i++) {
      log.append(LogLine.Stream.STDOUT, "line " + i, Instant.EPOCH);
    }

    LogChunk chunk = log.read(0, 100);

    assertThat(chunk.missed()).isEqualTo(15);
    assertThat(chunk.lines().get(0).stream()).isEqualTo(LogLine.Stream.MARKER);
    assertThat(chunk.lines().get(0).text()).isEqualTo("[15 lines skipped: the reader fell behind the log buffer]");
    assertThat(chunk.lines().subList(1, 11)).extracting(LogLine::offset).containsExactly(15L, 16L, 17L, 18L, 19L,
        20L, 21L, 22L, 23L, 24L);
    assertThat(chunk.nextOffset()).isEqualTo(25);
  }

  @Test
  void aReaderInsideTheRingGetsNoMarkerAndCanPage() {
    LogBuffer log = new LogBuffer("web", 10, 1_000_000);
    for (int i = 0; i < 8; i++) {
      log.append(LogLine.Stream.STDERR, "line " + i, Instant.EPOCH);
    }

    LogChunk first = log.read(2, 3);
    LogChunk tail = log.read(-2, 10);

    assertThat(first.missed()).isZero();
    assertThat(first.lines()).extracting(LogLine::text).containsExactly("line 2", "line 3", "line 4");
    assertThat(first.nextOffset()).isEqualTo(5);
    assertThat(tail.lines()).extracting(LogLine::text).containsExactly("line 6", "line 7");
  }

  @Test
  void theCharacterBoundDropsOldLinesToo() {
    LogBuffer log = new LogBuffer("web", 1_000, 100);
    for (int i = 0; i < 50; i++) {
      log.append(LogLine.Stream.STDOUT, "0123456789", Instant.EPOCH);
    }

    assertThat(log.read(0, 1_000).missed()).isEqualTo(40);
  }

  @Test
  void aFollowerIsWokenByTheNextLine() throws Exception {
    LogBuffer log = new LogBuffer("web", 10, 1_000);
    Thread writer = Thread.ofVirtual().unstarted(() -> log.append(LogLine.Stream.STDOUT, "hello", Instant.EPOCH));

    writer.start();
    LogChunk chunk = log.follow(0, 10, Duration.ofSeconds(30));

    assertThat(chunk.lines()).extracting(LogLine::text).containsExactly("hello");
  }

  @Test
  void aServicePrintingFasterThanItsViewerIsNeitherBlockedNorUnbounded() throws Exception {
    int lines = 200_000;
    try (ServiceSupervisor services = ServiceSupervisor.builder("web", Ports.free())
        .logLimits(1_000, 100_000, 8_192).build()) {
      services.define(ServiceDefinition.of("flood", dir.toString(), List.of("seq", "1", Integer.toString(lines))));
      LogChunk first = services.follow("flood", 0, 10, Duration.ZERO);
      services.start("flood");

      // The viewer reads nothing until the writer is done: the writer must finish regardless.
      ServiceState exited = services.await("flood", Set.of(ServiceStatus.EXITED), Duration.ofSeconds(60));
      LogChunk late = services.follow("flood", first.nextOffset(), 10, Duration.ofSeconds(5));

      assertThat(exited.logOffset()).isEqualTo(lines);
      assertThat(late.missed()).isEqualTo(lines - 1_000);
      assertThat(late.lines().get(0).text()).startsWith("[" + (lines - 1_000) + " lines skipped");
      assertThat(late.lines().get(1).text()).isEqualTo(Integer.toString(lines - 1_000 + 1));
      assertThat(services.logs("flood", 0, 5_000).lines()).hasSize(1_001);
    }
  }

  @Test
  void longLinesAreCutAtTheLineLimit() {
    StringBuilder captured = new StringBuilder();
    new OutputPump(new java.io.ByteArrayInputStream(("x".repeat(10) + "\nab\r\ncd").getBytes()), 4, () -> {},
        lines -> lines.forEach(line -> captured.append(line).append('|'))).run();

    assertThat(captured).hasToString("xxxx|xxxx|xx|ab|cd|");
  }

  @Test
  void linesSplitAcrossReadsArriveWholeAndEachReadsLinesTogether() {
    byte[] bytes = "first line\nsecond\r\n\nthird, last and long enough to be cut".getBytes(StandardCharsets.UTF_8);
    java.io.InputStream trickle = new java.io.ByteArrayInputStream(bytes) {
      @Override
      public int read(byte[] into, int offset, int length) {
        return super.read(into, offset, Math.min(length, 7)); // a pipe that gives 7 bytes at a time
      }
    };
    List<List<String>> batches = new java.util.ArrayList<>();
    new OutputPump(trickle, 16, () -> {}, lines -> batches.add(List.copyOf(lines))).run();

    assertThat(batches.stream().flatMap(List::stream).toList())
        .containsExactly("first line", "second", "", "third, last and ", "long enough to b", "e cut");
    assertThat(batches).contains(List.of("second", "")); // the third read ("ond\r\n\nt") ends two lines
  }

  @Test
  void thePumpLingersAfterAShortReadAndReadsAFloodAtOnce() {
    byte[] line = "2026-12-03T10:00:00Z INFO a line of about sixty bytes, as a log prints\n".getBytes(StandardCharsets.UTF_8);
    int full = 64 * 1024;
    List<Integer> reads = List.of(line.length, 3 * line.length, full, full, OutputPump.FLOOD_BYTES, OutputPump.FLOOD_BYTES - 1);
    byte[] bytes = new byte[reads.stream().mapToInt(Integer::intValue).sum()];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = line[i % line.length];
    }
    java.util.Iterator<Integer> sizes = reads.iterator();
    List<String> events = new java.util.ArrayList<>();
    java.io.InputStream pipe = new java.io.ByteArrayInputStream(bytes) {
      @Override
      public int read(byte[] into, int offset, int length) {
        int size = sizes.hasNext() ? sizes.next() : length;
        int read = super.read(into, offset, Math.min(length, size));
        events.add(read < 0 ? "end" : "read " + read);
        return read;
      }
    };
    new OutputPump(pipe, 1024, () -> events.add("linger"), lines -> {}).run();

    assertThat(events).containsExactly("read " + line.length, "linger", "read " + 3 * line.length, "linger",
        "read " + full, "read " + full, "read " + OutputPump.FLOOD_BYTES, "read " + (OutputPump.FLOOD_BYTES - 1), "linger",
        "end");
  }
}
