package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The streaming read of a called tool's name, which spares the common call a tree. */
class ToolCallRoutingTest {
  private static String tool(String body) {
    return ToolCallRouting.calledTool(body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsTheNameOfASingleToolsCallWhereverItsFieldsAre() {
    assertThat(tool("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"task_get\",\"arguments\":{\"task\":1}}}"))
        .isEqualTo("task_get");
    assertThat(tool("{\"params\":{\"arguments\":{\"name\":\"inner\",\"x\":[1,{\"name\":\"deep\"}]},\"_meta\":{\"progressToken\":3},"
        + "\"name\":\"task_list\"},\"id\":\"a\",\"method\":\"tools/call\",\"jsonrpc\":\"2.0\"}"))
        .isEqualTo("task_list");
  }

  @Test
  void answersNullForAnythingTheTreeBasedPathMustHandle() {
    assertThat(tool("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"task_get\"}}]")).isNull();
    assertThat(tool("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"name\":\"tools/call\"}}")).isNull();
    assertThat(tool("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":7}}")).isNull();
    assertThat(tool("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"task_get\"")).isNull();
    assertThat(tool("not json tools/call")).isNull();
  }
}
