package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Which messages {@link DirectToolCalls} may answer itself: plain calls only, everything else is the SDK's. */
class PlainToolCallTest {
  private static PlainToolCall of(String json) {
    return PlainToolCall.of(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aCallWithArgumentsKeepsItsIdsTypeAndItsArguments() {
    PlainToolCall call = of("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"task_get\",\"arguments\":{\"task\":3}}}");
    assertThat(call.id()).isEqualTo(7);
    assertThat(call.name()).isEqualTo("task_get");
    assertThat(call.arguments().path("task").asInt()).isEqualTo(3);

    assertThat(of("{\"jsonrpc\":\"2.0\",\"id\":\"a-1\",\"method\":\"tools/call\",\"params\":{\"name\":\"project_list\"}}").id())
        .isEqualTo("a-1");
    assertThat(of("{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":null}}"))
        .satisfies(big -> {
          assertThat(big.id()).isEqualTo(9007199254740993L);
          assertThat(big.arguments()).isNull();
        });
    assertThat(of("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"_meta\":{\"trace\":\"t\"}}}"))
        .as("_meta without a progress token").isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
      "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}]",
      "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}",
      "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}",
      "{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234567890,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}",
      "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"_meta\":{\"progressToken\":\"p\"}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"task\":{\"ttl\":1000}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":[1]}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":7}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"},\"extra\":true}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"",
      "not json, but it says tools/call",
  })
  void anythingButAPlainCallIsLeftToTheSdk(String message) {
    assertThat(of(message)).isNull();
  }
}
