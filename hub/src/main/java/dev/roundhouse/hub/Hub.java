package dev.roundhouse.hub;

import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.ops.OperationRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The running hub: its operations, its event stream and its configuration. Faces (HTTP, MCP, LSP, ACP,
 * CLI) hold no state of their own and reach everything through this interface.
 *
 * <p>Thread-safe.
 */
public interface Hub extends AutoCloseable {

  HubConfig config();

  /** Every operation, by name; the one write and query surface. */
  OperationRegistry operations();

  /** The ordered, durable event stream. */
  EventBus events();

  /** The board's rules, for in-process callers that want typed access. */
  Board board();

  /** The agent drivers this hub runs turns with. */
  dev.roundhouse.hub.turns.DriverRegistry drivers();

  /** The turn runner (for in-process callers and tests; faces use the operations). */
  dev.roundhouse.hub.turns.TurnRunner runner();

  /** Transcripts by generation. */
  dev.roundhouse.hub.turns.Transcripts transcripts();

  /** Decisions: open, read, and act on answers (for extensions and in-process callers). */
  dev.roundhouse.hub.ext.DecisionDesk decisions();

  /** The resources extensions offer, for the faces that serve resources. */
  dev.roundhouse.hub.ext.ExtensionResources resources();

  /** The local API token. */
  String token();

  /** Records where the hub's HTTP server listens, for clients to find it. */
  void publishUrl(String url);

  /**
   * The base URL the hub's HTTP server published (such as {@code http://127.0.0.1:7420}); empty until the
   * server is listening.
   */
  java.util.Optional<String> publishedUrl();

  @Override
  void close();

  /**
   * Opens the hub in {@code config.home()}: takes the home lock (failing at once if another hub holds it),
   * opens and migrates the database, and registers the operations.
   */
  static Hub open(HubConfig config) {
    return RealHub.open(config, java.util.List.of(), java.util.List.of());
  }

  /** As {@link #open(HubConfig)}, with the agent drivers turns can use. */
  static Hub open(HubConfig config, java.util.List<? extends dev.roundhouse.hub.turns.AgentDriver> drivers) {
    return RealHub.open(config, drivers, java.util.List.of());
  }

  /** As {@link #open(HubConfig, java.util.List)}, with extensions that add operations and decision kinds. */
  static Hub open(
      HubConfig config,
      java.util.List<? extends dev.roundhouse.hub.turns.AgentDriver> drivers,
      java.util.List<? extends dev.roundhouse.hub.ext.HubExtension> extensions) {
    return RealHub.open(config, drivers, extensions);
  }

  /** This build's version, such as {@code 0.1.0-SNAPSHOT}. */
  static String version() {
    try (InputStream in = Hub.class.getResourceAsStream("version.txt")) {
      return in == null ? "dev" : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "dev";
    }
  }
}
