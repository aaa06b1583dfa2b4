package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.util.RawValue;
import dev.roundhouse.hub.core.FailureLog;
import dev.roundhouse.hub.core.RoundhouseException;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an operation's answer into a tool result: its JSON as text, and as structured content when it is an object;
 * a {@link RoundhouseException} as a tool error whose text is the operation's sentence; anything else as a
 * tool error naming a log reference, never a stack trace. Stateless; thread-safe.
 */
final class ToolResults {
  private static final Logger log = LoggerFactory.getLogger(ToolResults.class);

  private ToolResults() {}

  /** @param call the operation, answering its output as JSON text */
  static McpSchema.CallToolResult run(String tool, Supplier<String> call) {
    String output;
    try {
      output = call.get();
    } catch (RoundhouseException e) {
      return error(e.getMessage());
    } catch (RuntimeException e) {
      String ref = FailureLog.logged(log, "tool " + tool + " failed", e);
      return error("internal error in " + tool + "; the hub log has the details under reference " + ref);
    }
    return success(output);
  }

  /** The output (JSON text) as the text content, and as the structured content when it is an object. */
  static McpSchema.CallToolResult success(String output) {
    McpSchema.CallToolResult.Builder result = McpSchema.CallToolResult.builder().addTextContent(output).isError(false);
    if (output.startsWith("{")) {
      // Written verbatim by the SDK's Jackson mapper: no tree and no Map, the operation's output serialized once.
      result.structuredContent(new RawValue(output));
    }
    return result.build();
  }

  static McpSchema.CallToolResult error(String sentence) {
    return McpSchema.CallToolResult.builder().addTextContent(sentence).isError(true).build();
  }
}
