package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.http.HttpMount;
import java.nio.file.Path;

/**
 * Entry points of the MCP face. Stateless; thread-safe.
 */
public final class McpServers {
  /** Where the MCP endpoint listens on the hub's server. */
  public static final String PATH = "/mcp";

  private McpServers() {}

  /**
   * The Streamable HTTP endpoint at {@link #PATH}, to pass to {@code HubServer.start}. It checks the
   * request's origin and host, its {@code MCP-Protocol-Version} and its bearer token (the one in
   * {@link #tokenFile}, created with mode 0600 if missing) before the MCP SDK sees it.
   */
  public static HttpMount streamableHttp(Hub hub) {
    return StreamableHttpMount.create(hub, McpToken.loadOrCreate(tokenFile(hub.config().home())));
  }

  /** The MCP endpoint's own bearer token: {@code $ROUNDHOUSE_HOME/mcp-token}, not the local API token. */
  public static Path tokenFile(Path home) {
    return home.resolve("mcp-token");
  }
}
