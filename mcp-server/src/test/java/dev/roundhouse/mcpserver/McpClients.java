package dev.roundhouse.mcpserver;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.time.Duration;

/** Real MCP Java SDK clients for a test hub's {@code /mcp}. Stateless. */
@SuppressWarnings("deprecation") // loggingConsumer: see ToolCalls#send
final class McpClients {
  private McpClients() {}

  /** An initialized client named {@code name}, sending {@code token}. */
  static McpSyncClient connect(String baseUrl, String token, String name) {
    return connect(baseUrl, token, name, uri -> {});
  }

  /** As {@link #connect(String, String, String)}, passing each {@code resources/updated} URI to {@code updated}. */
  static McpSyncClient connect(String baseUrl, String token, String name, java.util.function.Consumer<String> updated) {
    return connect(baseUrl, token, name, updated, progress -> {}, log -> {});
  }

  /** As {@link #connect(String, String, String)}, passing progress and log notifications on. */
  static McpSyncClient connect(
      String baseUrl, String token, String name, java.util.function.Consumer<McpSchema.ProgressNotification> progress,
      java.util.function.Consumer<McpSchema.LoggingMessageNotification> logs) {
    return connect(baseUrl, token, name, uri -> {}, progress, logs);
  }

  private static McpSyncClient connect(
      String baseUrl, String token, String name, java.util.function.Consumer<String> updated,
      java.util.function.Consumer<McpSchema.ProgressNotification> progress,
      java.util.function.Consumer<McpSchema.LoggingMessageNotification> logs) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(baseUrl)
            .endpoint(McpServers.PATH)
            .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    McpSyncClient client =
        McpClient.sync(transport)
            .clientInfo(McpSchema.Implementation.builder(name, "1.0").build())
            .requestTimeout(Duration.ofSeconds(20))
            .resourcesUpdateConsumer(resources -> resources.forEach(resource -> updated.accept(resource.uri())))
            .progressConsumer(progress)
            .loggingConsumer(logs)
            // The SDK's default validator needs a newer json-schema-validator than the hub ships;
            // McpHttpTest checks the structured results against the registry's schemas itself.
            .jsonSchemaValidator((schema, content) -> JsonSchemaValidator.ValidationResponse.asValid(null))
            .build();
    client.initialize();
    return client;
  }
}
