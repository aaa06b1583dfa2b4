package dev.roundhouse.app;

import dev.roundhouse.hub.HomeLock;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.mcpserver.HubLocator;
import dev.roundhouse.mcpserver.McpServers;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse mcp}: MCP over stdio, for clients that start their servers as a command (Claude
 * Desktop, Claude Code, Cursor, Codex, the Inspector). It attaches to the running hub's Streamable HTTP
 * endpoint ({@code /mcp}, with {@code $ROUNDHOUSE_HOME/mcp-token}) and relays every JSON-RPC line both ways
 * until stdin closes. When no hub runs for the home it starts one in the background ({@code roundhouse
 * serve}, detached, logging to {@code $ROUNDHOUSE_HOME/hub.log}) and waits for it to publish its URL, unless
 * {@code --no-start}. When the hub stops answering (it restarted, perhaps on another port), the relay finds
 * it again the same way, starting one only for a request the client waits on. stdout carries JSON-RPC only;
 * messages go to stderr.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "mcp",
    description = "MCP over stdio, relayed to the running hub's /mcp (starting a hub in the background if none runs).",
    mixinStandardHelpOptions = true)
final class McpCommand implements Callable<Integer> {
  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = "--no-start", description = "Exit 3 instead of starting a hub when none runs.")
  boolean noStart;

  McpCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    return serve(context, spec.commandLine().getOut(), spec.commandLine().getErr(), noStart);
  }

  /**
   * Relays stdin and {@code out} to the hub until stdin closes (what {@code roundhouse mcp} runs, with or without
   * picocli: see {@link FaceStart}). When a hub holds the home's lock, the relay answers the client's
   * {@code initialize} itself and finds the hub's URL after that; otherwise it finds the hub (or starts one, or
   * fails with exit 3 under {@code noStart}) first, as before.
   */
  static int serve(Context context, PrintWriter out, PrintWriter err, boolean noStart) {
    HubLocator locator = mayStart -> BackgroundHub.locateOrStart(context, err, "mcp", noStart || !mayStart).url();
    HubConfig config = context.hubConfig();
    if (context.variable(HubEndpoint.URL_VARIABLE).isEmpty() && HomeLock.isHeld(config.lockFile())) {
      return McpServers.bridgeStdio(null, locator, config.home(), context.stdin(), out);
    }
    HubEndpoint endpoint = BackgroundHub.locateOrStart(context, err, "mcp", noStart);
    return McpServers.bridgeStdio(endpoint.url(), locator, endpoint.home(), context.stdin(), out);
  }
}
