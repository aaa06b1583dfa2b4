package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.ops.OperationRegistry;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Answers a call of a tool that does not exist (or that the caller is not offered) with a sentence naming
 * the tool and the nearest names, instead of the SDK's "Unknown tool: invalid_tool_name". The SDK looks tools
 * up itself, so {@link ToolCallRouting} renames such a call to the hidden tool {@link #NAME} (never listed),
 * whose handler answers the JSON-RPC error {@code -32602} with the sentence. Stateless; thread-safe.
 */
final class UnknownTools {
  /** The hidden tool unknown calls are routed to; its name cannot be an operation's (operations have no '-'). */
  static final String NAME = "roundhouse-unknown-tool";
  static final String REQUESTED = "requested";
  private static final int MAX_SUGGESTIONS = 5;

  private UnknownTools() {}

  static SyncToolSpecification tool(OperationRegistry registry) {
    McpSchema.Tool tool = McpSchema.Tool.builder(NAME, Map.of("type", "object"))
        .description("Answers calls of unknown tools; never listed.").build();
    return SyncToolSpecification.builder()
        .tool(tool)
        .callHandler((exchange, request) -> {
          Object requested = request.arguments() == null ? null : request.arguments().get(REQUESTED);
          throw error(requested == null ? "" : requested.toString(), registry, Caller.of(exchange));
        })
        .build();
  }

  /** The error for a call of {@code name}, listing the nearest tool names {@code caller} is offered. */
  static McpError error(String name, OperationRegistry registry, Caller caller) {
    List<String> offered = registry.list().stream().map(OperationDescriptor::name).filter(caller::listed).toList();
    List<String> near = near(name, offered);
    String shown = name.length() > 80 ? name.substring(0, 80) + "…" : name;
    String message = "no tool named '" + shown + "'"
        + (caller.isAgent() && registry.describe(name).isPresent() ? " for an agent session (agents are offered the agents' tools and their task's extension tools only)" : "")
        + (near.isEmpty() ? "" : "; did you mean " + String.join(", ", near) + "?")
        + " (tools/list names all " + offered.size() + ")";
    return McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(message).data(Map.of("tool", shown, "near", near)).build();
  }

  /** Up to five names close to {@code name}: small edit distance, or one containing the other. */
  static List<String> near(String name, List<String> names) {
    String wanted = name.toLowerCase(Locale.ROOT);
    int limit = Math.max(2, wanted.length() / 3);
    return names.stream()
        .filter(candidate -> distance(wanted, candidate) <= limit
            || (wanted.length() >= 3 && (candidate.contains(wanted) || wanted.contains(candidate))))
        .sorted(Comparator.comparingInt((String candidate) -> distance(wanted, candidate)).thenComparing(c -> c))
        .limit(MAX_SUGGESTIONS)
        .toList();
  }

  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
