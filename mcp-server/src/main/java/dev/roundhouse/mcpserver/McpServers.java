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
   * {@link #tokenFile}, created with mode 0600 if missing) before the MCP SDK sees it. While mounted it
   * hands turns task-scoped endpoints (a fresh token per turn, revoked when the turn ends), so an agent's
   * calls are recorded as {@code agent:<task>} and it is offered the agents' tools only.
   */
  public static HttpMount streamableHttp(Hub hub) {
    return streamableHttp(hub, McpOptions.DEFAULTS);
  }

  /** As {@link #streamableHttp(Hub)}, built with {@code options} (tests). */
  static HttpMount streamableHttp(Hub hub, McpOptions options) {
    return StreamableHttpMount.create(hub, McpToken.loadOrCreate(tokenFile(hub.config().home())), options);
  }

  /**
   * MCP over stdio for the hub at {@code hubUrl} (its base URL) whose home is {@code home}: relays each
   * JSON-RPC line of {@code in} to the hub's {@link #PATH} with the MCP token in {@link #tokenFile}, and
   * writes each message back as one line on {@code out}, until {@code in} ends. When the hub stops answering
   * there (a refused connection, or a 404 for the relay's session), {@code locator} says where it is now and
   * the relay renews its session there. Returns the exit status (0).
   */
  public static int bridgeStdio(String hubUrl, HubLocator locator, Path home, java.io.InputStream in, java.io.Writer out) {
    Path token = tokenFile(home);
    java.util.function.Supplier<String> read = () -> {
      try {
        return dev.roundhouse.hub.LocalToken.read(token);
      } catch (java.io.IOException e) {
        return "";
      }
    };
    return new StdioBridge(hubUrl, locator, read, out).run(in);
  }

  /** The MCP endpoint's own bearer token: {@code $ROUNDHOUSE_HOME/mcp-token}, not the local API token. */
  public static Path tokenFile(Path home) {
    return home.resolve("mcp-token");
  }
}
