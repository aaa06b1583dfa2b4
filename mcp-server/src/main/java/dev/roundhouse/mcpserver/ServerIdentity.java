package dev.roundhouse.mcpserver;

import java.util.List;

/**
 * What the hub's MCP server says of itself in its answer to {@code initialize}: its name, title and
 * instructions, and the protocol versions it speaks. {@link StreamableHttpMount} builds the server from these,
 * and {@link LocalInitialize} lets the stdio relay answer {@code initialize} from them without asking the hub.
 * The capabilities are in both places (the SDK's builder there, plain JSON here); a test holds them equal.
 *
 * <p>Constants only; thread-safe.
 */
final class ServerIdentity {
  static final String NAME = "roundhouse";
  static final String TITLE = "Roundhouse";
  static final String INSTRUCTIONS =
      "Roundhouse: a hub for coding agents. Its tools are the hub's operations (projects, the task board, turns, decisions).";

  /**
   * The protocol versions the hub's server accepts, oldest first (the MCP Java SDK's Streamable HTTP transport's
   * list); a client asking for another is answered with the newest.
   */
  static final List<String> PROTOCOL_VERSIONS = List.of("2025-03-26", "2025-06-18", "2025-11-25");

  private ServerIdentity() {}

  /** The version the server answers a client that asks for {@code requested} with. */
  static String negotiate(String requested) {
    return PROTOCOL_VERSIONS.contains(requested) ? requested : PROTOCOL_VERSIONS.getLast();
  }
}
