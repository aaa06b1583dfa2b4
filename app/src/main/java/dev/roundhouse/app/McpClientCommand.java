package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse mcp-client}: the MCP clients that signed in through the hub's authorization server
 * ({@code mcp_client_list}, {@code mcp_client_revoke}). Not thread-safe (picocli command).
 */
@Command(
    name = "mcp-client",
    description = "List and revoke the MCP clients that signed in (OAuth) instead of using the mcp-token.",
    mixinStandardHelpOptions = true,
    subcommands = {McpClientCommand.ListClients.class, McpClientCommand.Revoke.class})
final class McpClientCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw Cli.missingCommand(spec);
  }

  /** {@code roundhouse mcp-client list}: {@code mcp_client_list}. */
  @Command(name = "list", description = "List the signed-in MCP clients and until when they hold tokens.", mixinStandardHelpOptions = true)
  static final class ListClients extends ClientCommand {
    ListClients(Context context) {
      super(context);
    }

    @Override
    void run(RemoteHub hub, PrintWriter out) {
      JsonNode clients = hub.call("mcp_client_list", Map.of());
      if (json()) {
        printJson(out, clients);
        return;
      }
      if (clients.path("clients").isEmpty()) {
        out.println("no MCP client has signed in; clients that connect with no header sign in (docs/mcp.md)");
        return;
      }
      Table table = new Table().row("CLIENT ID", "NAME", "REDIRECT", "TOKENS UNTIL");
      for (JsonNode client : clients.path("clients")) {
        List<String> redirects = new ArrayList<>();
        client.path("redirect_uris").forEach(uri -> redirects.add(uri.asText()));
        table.row(client.path("client_id").asText(), client.path("client_name").asText(), String.join(" ", redirects),
            client.path("authorized").asBoolean() ? client.path("refresh_token_expires_at").asText() : "-");
      }
      table.print(out);
    }
  }

  /** {@code roundhouse mcp-client revoke CLIENT_ID}: {@code mcp_client_revoke}. */
  @Command(name = "revoke", description = "Forget an MCP client: its tokens stop working at once.", mixinStandardHelpOptions = true)
  static final class Revoke extends ClientCommand {
    @Parameters(paramLabel = "CLIENT_ID", description = "The client id, from mcp-client list.")
    String clientId;

    Revoke(Context context) {
      super(context);
    }

    @Override
    void run(RemoteHub hub, PrintWriter out) {
      JsonNode revoked = hub.call("mcp_client_revoke", Map.of("client_id", clientId));
      if (json()) {
        printJson(out, revoked);
        return;
      }
      out.println("revoked " + revoked.path("client_name").asText() + " (" + revoked.path("client_id").asText() + ")"
          + (revoked.path("had_tokens").asBoolean() ? ": its tokens no longer work" : ": it held no tokens"));
    }
  }
}
