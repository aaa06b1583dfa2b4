package dev.roundhouse.drivers.acp;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.roundhouse.hub.spi.AgentEndpoint;
import java.util.List;
import java.util.Optional;

/**
 * The parameters of {@code session/new} and {@code session/load}, carrying the hub's MCP endpoint. Our own
 * records rather than the SDK's, because these hold the task's bearer token and the SDK logs request
 * parameters (at trace level) with their {@code toString}: ours never print a header's value. Immutable.
 */
final class SessionParams {
  /** The name the agent knows the hub's MCP server by (its tools show under it). */
  static final String MCP_SERVER_NAME = "roundhouse";

  private SessionParams() {}

  record Header(String name, String value) {
    @Override
    public String toString() {
      return name + ": [redacted]";
    }
  }

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record McpServer(String type, String name, String url, List<Header> headers) {}

  record NewSession(String cwd, List<McpServer> mcpServers) {}

  record LoadSession(String sessionId, String cwd, List<McpServer> mcpServers) {}

  /**
   * The hub's endpoint as an HTTP MCP server with an {@code Authorization} header, when there is one and
   * the agent takes HTTP MCP servers; otherwise none.
   */
  static List<McpServer> mcpServers(Optional<AgentEndpoint> endpoint, boolean agentTakesHttp) {
    if (endpoint.isEmpty() || !agentTakesHttp) {
      return List.of();
    }
    AgentEndpoint hub = endpoint.get();
    return List.of(new McpServer("http", MCP_SERVER_NAME, hub.url().toString(), List.of(new Header("Authorization", "Bearer " + hub.bearerToken()))));
  }
}
