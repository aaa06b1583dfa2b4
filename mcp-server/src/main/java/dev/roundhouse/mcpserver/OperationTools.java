package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.ops.OperationRegistry;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * The operation registry as MCP tools: one tool per operation, with the operation's name, description,
 * input and output schemas and annotations, whose call runs {@link OperationRegistry#invoke} for the calling
 * caller (an external client, or a task's agent, which is offered the agents' tools only). Stateless;
 * thread-safe.
 */
final class OperationTools {
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  /** The actor's client name when the client did not say who it is. */
  static final String UNNAMED_CLIENT = Caller.UNNAMED_CLIENT;

  private OperationTools() {}

  /** A tool for each operation registered now, in the registry's order. */
  static List<SyncToolSpecification> of(OperationRegistry registry, ToolCalls calls) {
    return registry.list().stream().map(descriptor -> tool(calls, descriptor)).toList();
  }

  static SyncToolSpecification tool(ToolCalls calls, OperationDescriptor descriptor) {
    McpSchema.Tool.Builder tool =
        McpSchema.Tool.builder(descriptor.name(), asMap(descriptor.inputSchema()))
            .description(descriptor.description())
            .annotations(annotations(descriptor.annotations()));
    if (descriptor.outputSchema() != null && descriptor.outputSchema().isObject()) {
      tool.outputSchema(asMap(descriptor.outputSchema()));
    }
    String name = descriptor.name();
    return SyncToolSpecification.builder()
        .tool(tool.build())
        .callHandler((exchange, request) -> calls.call(exchange, request, name, descriptor.annotations().readOnly()))
        .build();
  }

  /** Who is calling: see {@link Caller#actor}. */
  static Actor actor(McpSyncServerExchange exchange) {
    return Caller.actor(exchange);
  }

  private static McpSchema.ToolAnnotations annotations(OperationAnnotations effect) {
    return new McpSchema.ToolAnnotations(null, effect.readOnly(), effect.destructive(), effect.idempotent(), false, null);
  }

  static Map<String, Object> asMap(JsonNode object) {
    return Json.mapper().convertValue(object, OBJECT);
  }
}
