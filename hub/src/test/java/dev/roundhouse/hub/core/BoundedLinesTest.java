package dev.roundhouse.hub.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The stdio faces' line reader: a line past the cap is measured and dropped, keeping its first bytes; the next is whole. */
class BoundedLinesTest {
  @Test
  void aLinePastTheCapKeepsItsPrefixAndTheLinesAroundItArriveWhole() throws IOException {
    String text = "first\r\n" + "{\"id\":7," + "x".repeat(100) + "\n" + "ünïcode\n" + "last, no newline";
    // a stream that gives 5 bytes a read, so lines and the cap fall across reads
    InputStream trickle = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)) {
      @Override
      public int read(byte[] into, int offset, int length) {
        return super.read(into, offset, Math.min(length, 5));
      }
    };
    BoundedLines lines = new BoundedLines(trickle, 20, 8);

    assertThat(lines.next()).isEqualTo(new BoundedLines.Text("first"));
    BoundedLines.TooLong tooLong = (BoundedLines.TooLong) lines.next();
    assertThat(tooLong.length()).isEqualTo(108);
    assertThat(new String(tooLong.prefix(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":7,");
    assertThat(lines.next()).isEqualTo(new BoundedLines.Text("ünïcode"));
    assertThat(lines.next()).isEqualTo(new BoundedLines.Text("last, no newline"));
    assertThat(lines.next()).isNull();
  }
}
