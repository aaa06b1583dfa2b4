package dev.roundhouse.app;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.mcpserver.McpServers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A hub that lives for one command ({@code roundhouse run --ephemeral}): a fresh temporary home (never
 * {@code ROUNDHOUSE_HOME}), the hub with its drivers and the MCP endpoint (agent CLIs reach their task tools
 * there) on a free loopback port, and no workspace or services extension, so the agent works in the project's
 * own folder. {@link #close()} stops the HTTP server, closes the hub (its runner stops every turn and kills the
 * agents' process groups) and deletes the home; a shutdown hook does the same if the JVM is stopped first
 * (SIGTERM from a cancelled CI job).
 *
 * <p>Thread-safe: {@link #close()} runs once, whichever thread calls it first.
 */
final class EphemeralHub implements AutoCloseable {
  private final Path home;
  private final Hub hub;
  private final HubServer server;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Thread hook;

  private EphemeralHub(Path home, Hub hub, HubServer server) {
    this.home = home;
    this.hub = hub;
    this.server = server;
    this.hook = new Thread(this::shutDown, "roundhouse-ephemeral-cleanup");
  }

  /**
   * Opens a throwaway hub.
   *
   * @throws CliFailure with {@link ExitCode#CANNOT_START} when the home, the hub or its server cannot be made
   */
  static EphemeralHub open(Context context) {
    Path home;
    try {
      home = Files.createTempDirectory("roundhouse-run-");
    } catch (IOException e) {
      throw new CliFailure(ExitCode.CANNOT_START, "cannot_start", "cannot create a temporary home: " + e.getMessage(), e);
    }
    Hub hub = null;
    try {
      HubConfig config = HubConfig.forHome(home);
      hub = Hub.open(config, Drivers.all(context, config));
      HubServer server = HubServer.start(hub, Duration.ofSeconds(15), List.of(McpServers.streamableHttp(hub)));
      EphemeralHub opened = new EphemeralHub(home, hub, server);
      Runtime.getRuntime().addShutdownHook(opened.hook);
      return opened;
    } catch (RoundhouseException | UncheckedIOException e) {
      if (hub != null) {
        hub.close();
      }
      ScratchFolders.delete(home);
      throw new CliFailure(ExitCode.CANNOT_START, "cannot_start", "cannot start a throwaway hub: " + e.getMessage(), e);
    }
  }

  /** The throwaway home (gone after {@link #close()}). */
  Path home() {
    return home;
  }

  /** Where the CLI reaches this hub: its URL and token. */
  HubEndpoint endpoint() {
    return new HubEndpoint(server.url(), hub.token(), home, false);
  }

  @Override
  public void close() {
    shutDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down: the hook runs (and finds nothing left to do)
    }
  }

  private void shutDown() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      server.close();
    } finally {
      try {
        hub.close();
      } finally {
        ScratchFolders.delete(home);
      }
    }
  }
}
