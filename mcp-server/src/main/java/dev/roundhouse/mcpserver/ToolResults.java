package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Json;
import dev.roundhouse.hub.RoundhouseException;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an operation's answer into a tool result: the output as structured content plus its JSON as text;
 * a {@link RoundhouseException} as a tool error whose text is the operation's sentence; anything else as a
 * tool error naming a log reference, never a stack trace. Stateless; thread-safe.
 */
final class ToolResults {
  private static final Logger log = LoggerFactory.getLogger(ToolResults.class);

  private ToolResults() {}

  static McpSchema.CallToolResult run(String tool, Supplier<JsonNode> call) {
    JsonNode output;
    try {
      output = call.get();
    } catch (RoundhouseException e) {
      return error(e.getMessage());
    } catch (RuntimeException e) {
      String ref = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
      log.error("tool {} failed; reference {}", tool, ref, e);
      return error("internal error in " + tool + "; the hub log has the details under reference " + ref);
    }
    return success(output);
  }

  static McpSchema.CallToolResult success(JsonNode output) {
    McpSchema.CallToolResult.Builder result = McpSchema.CallToolResult.builder().addTextContent(Json.write(output)).isError(false);
    if (output != null && output.isObject()) {
      result.structuredContent(output); // the tree itself: the SDK's Jackson mapper writes it as is, no copy to a Map
    }
    return result.build();
  }

  static McpSchema.CallToolResult error(String sentence) {
    return McpSchema.CallToolResult.builder().addTextContent(sentence).isError(true).build();
  }
}
