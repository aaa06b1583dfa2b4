package dev.roundhouse.drivers.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseLinesTest {

  private static List<String> events(String stream) throws Exception {
    SseLines lines = new SseLines(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)), 1024);
    List<String> events = new ArrayList<>();
    String data;
    while ((data = lines.nextData()) != null) {
      events.add(data);
    }
    return events;
  }

  @Test
  void eachBlankLineEndsAnEvent() throws Exception {
    assertThat(events("data: one\n\ndata: two\n\n")).containsExactly("one", "two");
  }

  @Test
  void dataLinesOfOneEventAreJoinedWithNewlines() throws Exception {
    assertThat(events("data: a\ndata: b\n\n")).containsExactly("a\nb");
  }

  @Test
  void crlfAndLoneCrEndLinesToo() throws Exception {
    assertThat(events("data: one\r\n\r\ndata: two\r\rdata:three\n\n")).containsExactly("one", "two", "three");
  }

  @Test
  void commentsAndOtherFieldsAreSkipped() throws Exception {
    assertThat(events(": OPENROUTER PROCESSING\n\nevent: message\nid: 7\nretry: 100\ndata: x\n\n")).containsExactly("x");
  }

  @Test
  void anEventCutOffByTheEndOfTheStreamIsStillReturned() throws Exception {
    assertThat(events("data: one\n\ndata: last")).containsExactly("one", "last");
  }

  @Test
  void multiByteCharactersSurvive() throws Exception {
    assertThat(events("data: grüße 🚂\n\n")).containsExactly("grüße 🚂");
  }

  @Test
  void anUnknownFieldIsMalformed() {
    assertThatThrownBy(() -> events("{\"choices\":[]}\n\n"))
        .isInstanceOf(SseLines.MalformedSseException.class)
        .hasMessage("malformed SSE line '{\"choices\":[]}' (expected 'data: ...')");
  }

  @Test
  void anOverlongLineIsMalformed() {
    assertThatThrownBy(() -> events("data: " + "x".repeat(2000) + "\n\n"))
        .isInstanceOf(SseLines.MalformedSseException.class)
        .hasMessage("an SSE line is longer than 1024 bytes");
  }

  @Test
  void countsTheBytesItRead() throws Exception {
    SseLines lines = new SseLines(new ByteArrayInputStream("data: ab\n\n".getBytes(StandardCharsets.UTF_8)), 1024);
    assertThat(lines.bytesRead()).isZero();
    lines.nextData();
    assertThat(lines.bytesRead()).isEqualTo(10);
  }
}
