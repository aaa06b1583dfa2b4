package dev.roundhouse.app;

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
    PrintWriter err = spec.commandLine().getErr();
    HubEndpoint endpoint = BackgroundHub.locateOrStart(context, err, "mcp", noStart);
    HubLocator locator = mayStart -> BackgroundHub.locateOrStart(context, err, "mcp", noStart || !mayStart).url();
    return McpServers.bridgeStdio(endpoint.url(), locator, endpoint.home(), context.stdin(), spec.commandLine().getOut());
  }
}
