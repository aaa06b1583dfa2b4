package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.http.HttpMount;
import dev.roundhouse.mcpserver.oauth.McpAuthorization;
import java.nio.file.Path;
import java.util.List;

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
    return mounts(hub, options, null).get(0);
  }

  /**
   * As {@link #streamableHttp(Hub)}, and signed-in clients too: the endpoint also accepts the access tokens of
   * {@code authorization} (which must have been given to {@code hub} as an extension), its 401 points at the
   * protected resource metadata (RFC 9728), and the second mount serves the authorization server's routes (the
   * metadata documents and {@code /oauth/*}) behind the same Origin and Host checks. Pass both to
   * {@code HubServer.start}.
   */
  public static List<HttpMount> withAuthorization(Hub hub, McpAuthorization authorization) {
    return mounts(hub, McpOptions.DEFAULTS, authorization);
  }

  static List<HttpMount> mounts(Hub hub, McpOptions options, McpAuthorization authorization) {
    McpToken token = McpToken.loadOrCreate(tokenFile(hub.config().home()));
    AgentTokens agents = new AgentTokens(hub, options.random());
    RequestChecks checks = new RequestChecks(token, agents, hub.config(), options.requireBearer(), authorization);
    StreamableHttpMount mcp = StreamableHttpMount.create(hub, options, agents, checks, authorization != null);
    if (authorization == null) {
      return List.of(mcp);
    }
    return List.of(mcp, authorization.routes(hub, checks::browserRefusal));
  }

  /**
   * MCP over stdio for the hub at {@code hubUrl} (its base URL) whose home is {@code home}: relays each
   * JSON-RPC line of {@code in} to the hub's {@link #PATH} with the MCP token in {@link #tokenFile}, and
   * writes each message back as one line on {@code out}, until {@code in} ends. When the hub stops answering
   * there (a refused connection, or a 404 for the relay's session), {@code locator} says where it is now and
   * the relay renews its session there. With {@code hubUrl} null the locator is asked at the first request,
   * after the relay answered a plain {@code initialize} itself (what the hub's server answers; see
   * {@code StdioBridge}), so the client is answered before anything is sent to the hub. Returns the exit status (0).
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
