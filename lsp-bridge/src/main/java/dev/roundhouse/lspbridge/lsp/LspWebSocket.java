package dev.roundhouse.lspbridge.lsp;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.http.HttpMount;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubUnavailableException;

/**
 * The LSP bridge served by the hub itself at {@value #PATH}, over a WebSocket: the protocol of
 * {@code roundhouse lsp} (docs/lsp-protocol.md) with one JSON-RPC message per text frame, for an editor with no
 * local Java (VS Code's extension with {@code roundhouse.hub.url} set). Mount it on the hub's server with
 * {@link dev.roundhouse.hub.http.HubServer#start(Hub, java.time.Duration, java.util.List)}.
 *
 * <p>Thread-safety: stateless; the mount it makes is thread-safe.
 */
public final class LspWebSocket {
  /** Where the bridge's WebSocket is served. */
  public static final String PATH = "/api/lsp";

  /**
   * The subprotocol echoed when the client offers it: a browser that sends the token as the subprotocol
   * {@code roundhouse.token.<token>} must offer this one beside it (a browser fails an upgrade that offered
   * subprotocols and got none back).
   */
  public static final String SUBPROTOCOL = "roundhouse.lsp";

  private LspWebSocket() {}

  /**
   * The mount serving {@code hub}'s bridge sessions: each calls the hub back at the URL it published, with its
   * token.
   */
  public static HttpMount mount(Hub hub, LspBridge.Settings settings) {
    SocketMount mount = new SocketMount(() -> new HubAddress(loopback(hub.publishedUrl().orElseThrow(
        () -> new HubUnavailableException("the hub has not published its URL yet"))), hub.token()), settings);
    hub.metrics().gauge("roundhouse.lsp.sessions", "LSP bridge sessions open on the WebSocket", mount::sessions);
    return mount;
  }

  /** A wildcard bind address is reached on loopback. */
  static String loopback(String url) {
    return url.replace("://0.0.0.0:", "://127.0.0.1:").replace("://[::]:", "://[::1]:").replace("://[0:0:0:0:0:0:0:0]:", "://[::1]:");
  }
}
