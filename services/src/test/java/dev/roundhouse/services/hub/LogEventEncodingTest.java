package dev.roundhouse.services.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.services.LogLine;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SSE route writes a line's event by hand, as UTF-8 bytes; it must carry the same JSON as the hub's mapper gives the
 * line, and viewers share one encoding of each line.
 */
class LogEventEncodingTest {
  @ParameterizedTest
  @ValueSource(strings = {"plain", "", "quote \" and backslash \\ end", "tab\there\rreturn", "bell \u0007 nul \u0000 esc \u001b[31m",
      "unicode é ü 漢字 and 😀", "separators \u2028 \u2029", "{\"json\":[1,2]}"})
  void handWrittenEventIsTheMappersJson(String text) {
    LogLine line = new LogLine(42, LogLine.Stream.STDERR, text, Instant.parse("2026-12-02T03:04:05.123456789Z"));
    String event = new String(SseLines.encode(line), StandardCharsets.UTF_8);
    assertThat(event).startsWith("id: 42\nevent: line\ndata: ").endsWith("\n\n");
    String data = event.substring("id: 42\nevent: line\ndata: ".length(), event.length() - 2);
    assertThat(data).doesNotContain("\n");
    JsonNode parsed = Json.read(data, JsonNode.class);
    assertThat(parsed.toString()).isEqualTo(Json.tree(line).toString()); // as text: the mapper holds 42 as a long, the parser as an int
  }

  @org.junit.jupiter.api.Test
  void viewersShareOneEncodingOfALineAndNeverAnotherLinesBytes() {
    SseLines events = new SseLines(5_000);
    Instant at = Instant.parse("2026-12-02T03:04:05Z");
    LogLine line = new LogLine(7, LogLine.Stream.STDOUT, "hello", at);
    byte[] first = events.event(line);
    LogLine behind = new LogLine(7 + 4_999, LogLine.Stream.STDOUT, "a viewer 4,999 lines on", at);
    events.event(behind);
    assertThat(events.event(line)).as("lines as far apart as the log keeps share no slot").isSameAs(first);
    LogLine sameOffset = new LogLine(7, LogLine.Stream.STDOUT, "after a redefinition", at);
    assertThat(new String(events.event(sameOffset), StandardCharsets.UTF_8)).contains("after a redefinition");
    LogLine sameSlot = new LogLine(7 + events.slots(), LogLine.Stream.STDOUT, "later", Instant.EPOCH);
    assertThat(new String(events.event(sameSlot), StandardCharsets.UTF_8)).contains("later", "1970-01-01T00:00:00Z")
        .doesNotContain("after a redefinition");
  }
}
