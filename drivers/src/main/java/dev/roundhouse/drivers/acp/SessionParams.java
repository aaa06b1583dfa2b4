package dev.roundhouse.drivers.acp;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.hub.model.McpServerSpec;
import java.util.ArrayList;
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

  /** An environment variable of a stdio server; never prints its value. */
  record Variable(String name, String value) {
    @Override
    public String toString() {
      return name + "=[redacted]";
    }
  }

  /** An http server ({@code type}, {@code url}, {@code headers}) or a stdio one ({@code command}, {@code args}, {@code env}). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record McpServer(String type, String name, String url, List<Header> headers, String command, List<String> args, List<Variable> env) {
    McpServer(String type, String name, String url, List<Header> headers) {
      this(type, name, url, headers, null, null, null);
    }
  }

  record NewSession(String cwd, List<McpServer> mcpServers) {}

  record LoadSession(String sessionId, String cwd, List<McpServer> mcpServers) {}

  /**
   * The hub's endpoint as an HTTP MCP server with an {@code Authorization} header, when there is one and
   * the agent takes HTTP MCP servers; otherwise none.
   */
  static List<McpServer> mcpServers(Optional<AgentEndpoint> endpoint, boolean agentTakesHttp) {
    return mcpServers(endpoint, List.of(), agentTakesHttp);
  }

  /**
   * The hub's endpoint as above, then the servers a face gave the turn: every stdio one, and the http ones
   * when the agent takes HTTP servers (the others are left out, and the caller says so).
   */
  static List<McpServer> mcpServers(Optional<AgentEndpoint> endpoint, List<McpServerSpec> extra, boolean agentTakesHttp) {
    List<McpServer> servers = new ArrayList<>();
    if (endpoint.isPresent() && agentTakesHttp) {
      AgentEndpoint hub = endpoint.get();
      servers.add(new McpServer("http", MCP_SERVER_NAME, hub.url().toString(), List.of(new Header("Authorization", "Bearer " + hub.bearerToken()))));
    }
    for (McpServerSpec spec : extra) {
      if (spec.transport().equals("http")) {
        if (agentTakesHttp) {
          List<Header> headers = new ArrayList<>();
          spec.headers().forEach((name, value) -> headers.add(new Header(name, value)));
          servers.add(new McpServer("http", spec.name(), spec.url(), headers));
        }
      } else {
        List<Variable> env = new ArrayList<>();
        spec.env().forEach((name, value) -> env.add(new Variable(name, value)));
        servers.add(new McpServer(null, spec.name(), null, null, spec.command(), spec.args(), env));
      }
    }
    return servers;
  }

  /** The values that must never appear in what the connection reports: env values and header values. */
  static List<String> secrets(List<McpServerSpec> extra) {
    List<String> secrets = new ArrayList<>();
    for (McpServerSpec spec : extra) {
      secrets.addAll(spec.env().values());
      secrets.addAll(spec.headers().values());
    }
    return secrets;
  }
}
