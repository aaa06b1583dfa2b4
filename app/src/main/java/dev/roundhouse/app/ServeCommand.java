package dev.roundhouse.app;

import dev.roundhouse.calendaragent.CalendarExtension;
import dev.roundhouse.mcpserver.oauth.AuthorizationSettings;
import dev.roundhouse.mcpserver.oauth.McpAuthorization;
import dev.roundhouse.calendaragent.CalendarSource;
import dev.roundhouse.calendaragent.ConversationSettings;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.http.HttpMount;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.lspbridge.lsp.LspBridge;
import dev.roundhouse.lspbridge.lsp.LspWebSocket;
import dev.roundhouse.mcpserver.McpServers;
import dev.roundhouse.services.hub.ServicesExtension;
import dev.roundhouse.services.hub.ServicesSettings;
import dev.roundhouse.workspace.hub.WorkspaceExtension;
import dev.roundhouse.workspace.hub.WorkspaceSettings;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse serve}: the hub in the foreground, with the MCP endpoint at {@code /mcp} and the LSP bridge's
 * WebSocket at {@code /api/lsp}. Settings come from the {@code ROUNDHOUSE_*} variables,
 * then the flags. Prints one line when listening, and stops cleanly (server, then hub) on SIGTERM or
 * SIGINT, exiting 0. Exits 4 when another hub holds the home, 5 when the hub cannot start.
 *
 * <p>Not thread-safe: picocli fills it and runs it once; the main thread waits in {@link #serve} until a stop is
 * requested.
 */
@Command(
    name = "serve",
    description = "Run the hub in the foreground until SIGTERM or Ctrl-C.",
    mixinStandardHelpOptions = true)
final class ServeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  private final Context context;

  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      paramLabel = "N",
      description = "Port to listen on (default: ROUNDHOUSE_PORT, else 7420; 0 picks a free one).")
  Integer port;

  @Option(
      names = "--bind",
      paramLabel = "ADDR",
      description = "Address to listen on (default: ROUNDHOUSE_BIND, else 127.0.0.1).")
  String bind;

  @Option(
      names = "--allow-remote",
      description = "Allow a --bind address other than loopback; every request still needs the token.")
  boolean allowRemote;

  @Option(
      names = "--database",
      paramLabel = "URL",
      description = "Keep everything in this PostgreSQL database (postgresql://user@host:5432/db; default:"
          + " ROUNDHOUSE_DATABASE_URL, else SQLite in the home). The password comes from the URL,"
          + " ROUNDHOUSE_DATABASE_PASSWORD or ROUNDHOUSE_DATABASE_PASSWORD_FILE.")
  String database;

  ServeCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() throws InterruptedException {
    return serve(context, spec.commandLine().getErr(), port, bind, allowRemote, database);
  }

  static int serve(Context context, PrintWriter err, Integer port, String bind, boolean allowRemote) throws InterruptedException {
    return serve(context, err, port, bind, allowRemote, null);
  }

  /**
   * Runs the hub until a stop is requested (with or without picocli: see {@link ServeStart}); {@code port},
   * {@code bind} and {@code database} may be null (the environment's, else the defaults). Returns the exit status.
   */
  static int serve(Context context, PrintWriter err, Integer port, String bind, boolean allowRemote, String database)
      throws InterruptedException {
    HubConfig config;
    try {
      config = configure(context, port, bind, allowRemote, database);
      HubServer.checkBind(config); // options first: a refused start leaves the home untouched
    } catch (RoundhouseException e) {
      return refuse(err, ExitCode.CANNOT_START, e.getMessage());
    }
    Hub hub;
    McpAuthorization authorization;
    try {
      authorization = new McpAuthorization(AuthorizationSettings.load(context.env()));
      hub = openHub(context, config, authorization);
    } catch (RoundhouseException.HomeLocked e) {
      return refuse(err, ExitCode.HOME_LOCKED, e.getMessage());
    } catch (RoundhouseException | UncheckedIOException e) {
      return refuse(err, ExitCode.CANNOT_START, "cannot open the hub in " + config.home() + ": " + e.getMessage());
    }
    HubServer server;
    try {
      server = startServer(hub, authorization);
    } catch (RoundhouseException | UncheckedIOException e) {
      hub.close();
      return refuse(err, ExitCode.CANNOT_START, e.getMessage());
    }
    StopSignals signals = new StopSignals();
    signals.install();
    err.println("roundhouse " + Hub.version() + " listening on " + server.url() + " (home " + config.home()
        + (config.databaseUrl() == null ? "" : ", store " + config.storeLocation()) + ")");
    err.flush();
    try {
      log.info("stopping on {}", signals.awaitRequest());
    } finally {
      try {
        server.close();
      } finally {
        hub.close();
        log.info("stopped");
        signals.finished();
      }
    }
    return ExitCode.OK.status();
  }

  /** The hub as {@code serve} runs it: every driver and extension, for {@code config}. */
  static Hub openHub(Context context, HubConfig config, McpAuthorization authorization) {
    return Hub.open(config, Drivers.all(context, config),
        List.of(new CalendarExtension(CalendarSource.load(config.home(), context.env()),
            ConversationSettings.load(config.home(), context.env()), null, context.env()),
            // The workspace places a task's turns in its worktree before the services add the project's ports.
            new WorkspaceExtension(WorkspaceSettings.load(config.home(), context.env())),
            new ServicesExtension(ServicesSettings.load(context.env())),
            // MCP clients that sign in (OAuth) instead of sending the mcp-token: its routes are mounted by startServer.
            authorization));
  }

  /**
   * The HTTP server {@code serve} runs for {@code hub}: the MCP endpoint and its sign-in routes, and the LSP bridge
   * over a WebSocket at {@code /api/lsp} (for an editor with no local Java); publishes its URL.
   */
  static HubServer startServer(Hub hub, McpAuthorization authorization) {
    List<HttpMount> mounts = new ArrayList<>(McpServers.withAuthorization(hub, authorization));
    mounts.add(LspWebSocket.mount(hub, LspBridge.Settings.DEFAULTS));
    return HubServer.start(hub, Duration.ofSeconds(15), mounts);
  }

  private static HubConfig configure(Context context, Integer port, String bind, boolean allowRemote, String database) {
    HubConfig config = context.hubConfig();
    if (database != null) {
      config = config.withDatabaseUrl(DatabaseUrl.parse(database, context.env()));
    }
    if (port != null) {
      config = config.withPort(port);
    }
    if (bind != null || allowRemote) {
      config = config.withBind(bind != null ? bind : config.bind(), allowRemote);
    }
    return config;
  }

  private static int refuse(PrintWriter err, ExitCode exit, String message) {
    err.println("roundhouse: " + message);
    err.flush();
    return exit.status();
  }
}
