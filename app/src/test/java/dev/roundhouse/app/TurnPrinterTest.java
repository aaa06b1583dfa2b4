package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TurnPrinterTest {
  private final StringWriter written = new StringWriter();
  private final TurnPrinter printer = new TurnPrinter(new PrintWriter(written));

  @Test
  void streamedTextIsShownOnceAndTheMessageOnlyEndsItsLine() {
    print("turn.text_delta", Map.of("text", "Hello "));
    print("turn.text_delta", Map.of("text", "world"));
    print("turn.message", Map.of("text", "Hello world"));
    print("turn.message", Map.of("text", "Not streamed."));

    assertThat(written.toString()).isEqualTo("Hello world\nNot streamed.\n");
  }

  @Test
  void aToolCallStartsOnItsOwnLineEvenMidStream() {
    print("turn.text_delta", Map.of("text", "Let me look"));
    print("turn.tool_call", Map.of("call_id", "c1", "tool", "Grep", "input", Map.of("pattern", "TODO", "path", "src")));
    print("turn.tool_output", Map.of("call_id", "c1", "text", "a.js:1\n\nb.js:2\n"));
    print("turn.tool_result", Map.of("call_id", "c1", "output", "2 matches\na.js\nb.js\n", "is_error", false));
    print("turn.tool_result", Map.of("call_id", "c2", "output", "exit code 1", "is_error", true));

    assertThat(written.toString())
        .isEqualTo("Let me look\n  [Grep] TODO in src\n  | a.js:1\n  | b.js:2\n  = 2 matches (+2 lines)\n  ! exit code 1\n");
  }

  @Test
  void usageDenialsErrorsAndTheEndAreOneLineEach() {
    print("turn.usage", Map.of("input_tokens", 10, "output_tokens", 5));
    print("turn.permission_denied", Map.of("call_id", "c", "tool", "Bash", "reason", "denied by user"));
    print("turn.error", Map.of("message", "rate limited"));
    print("turn.ended", Map.of("turn", 3, "status", "failed", "reason", "step 2: unknown step kind 'x'"));
    print("turn.session", Map.of("session_id", "s"));

    assertThat(written.toString())
        .isEqualTo("  (tokens: 10 in, 5 out)\n  x denied: denied by user\nerror: rate limited\n"
            + "turn 3 failed: step 2: unknown step kind 'x'\n");
  }

  @Test
  void toolInputIsDescribedByItsCommandFileOrPattern() {
    assertThat(TurnPrinter.describe(Json.tree(Map.of("command", "npm test")))).isEqualTo("npm test");
    assertThat(TurnPrinter.describe(Json.tree(Map.of("file_path", "a.txt", "limit", 3)))).isEqualTo("a.txt");
    assertThat(TurnPrinter.describe(Json.tree(Map.of("task", 1)))).isEqualTo("{\"task\":1}");
    assertThat(TurnPrinter.describe(Json.tree(Map.of()))).isEmpty();
  }

  private void print(String type, Map<String, Object> data) {
    JsonNode event = Json.tree(Map.of("type", type, "data", data));
    printer.print(event);
  }
}
