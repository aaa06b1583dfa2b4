package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.mcpserver.oauth.McpAuthorization;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What every request to the MCP endpoint must pass before the SDK sees it, in this order: a present and
 * foreign {@code Origin} is refused, and so is a {@code Host} that is not this machine while the hub is
 * bound to loopback (both defend against DNS rebinding; 403); a {@code MCP-Protocol-Version} this server
 * does not speak (400); a missing or wrong bearer token (401). The bearer is either the external MCP token
 * (the caller is an external client) or a live task token from {@link AgentTokens} (the caller is that
 * task's agent) or an access token from the hub's {@link McpAuthorization} server, when it has one (the
 * caller is an external client that signed in). Immutable; thread-safe.
 */
final class RequestChecks {
  static final Set<String> PROTOCOL_VERSIONS =
      Set.of(
          ProtocolVersions.MCP_2024_11_05,
          ProtocolVersions.MCP_2025_03_26,
          ProtocolVersions.MCP_2025_06_18,
          ProtocolVersions.MCP_2025_11_25);
  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final McpToken token;
  private final AgentTokens agents;
  private final boolean requireBearer;
  private final Set<String> allowedOrigins;
  private final boolean checkHost;
  /** The authorization server whose access tokens are accepted too, or null (the static token only). */
  private final McpAuthorization authorization;

  /** What the checks decided: a refusal, or who the caller is. */
  sealed interface Outcome permits Refusal, Passed {}

  /** Why a request was refused: the HTTP status, a sentence, and whether to ask for a bearer token. */
  record Refusal(int status, String message, boolean challenge, String error) implements Outcome {
    Refusal(int status, String message, boolean challenge) {
      this(status, message, challenge, null);
    }
  }

  /** The request passed, for {@code caller}. */
  record Passed(Caller caller) implements Outcome {}

  RequestChecks(McpToken token, AgentTokens agents, HubConfig config, boolean requireBearer, McpAuthorization authorization) {
    this.authorization = authorization;
    this.token = token;
    this.agents = agents;
    this.requireBearer = requireBearer;
    this.allowedOrigins = Set.copyOf(config.allowedOrigins().stream().map(o -> o.strip().toLowerCase(Locale.ROOT)).toList());
    this.checkHost = !config.allowRemote();
  }

  /**
   * The first check {@code headers} (a header's first value by name, or null) fail, or who passed; {@code port} is
   * the local port the request reached (the audience check of signed-in clients' tokens).
   */
  Outcome check(Function<String, String> headers, int port) {
    Optional<Refusal> refused = refusal(headers);
    return refused.isPresent() ? refused.get() : bearer(headers.apply("Authorization"), headers.apply("Host"), port);
  }

  /** The Origin, Host and protocol version checks alone: what the authorization server's routes pass too. */
  Optional<String> browserRefusal(Function<String, String> headers) {
    return refusal(headers).map(Refusal::message);
  }

  private Optional<Refusal> refusal(Function<String, String> headers) {
    String origin = headers.apply("Origin");
    if (origin != null && !originAllowed(origin)) {
      return Optional.of(new Refusal(403,
          "requests from the browser origin '" + origin + "' are refused; allow it with ROUNDHOUSE_ALLOWED_ORIGINS", false));
    }
    String host = headers.apply("Host");
    if (checkHost && host != null && !LOOPBACK_HOSTS.contains(hostName(host))) {
      return Optional.of(new Refusal(403, "the Host '" + host + "' is not this machine; use 127.0.0.1 or localhost", false));
    }
    String version = headers.apply("MCP-Protocol-Version");
    if (version != null && !PROTOCOL_VERSIONS.contains(version.strip())) {
      return Optional.of(new Refusal(400,
          "unsupported MCP-Protocol-Version '" + version + "'; this server speaks " + String.join(", ", PROTOCOL_VERSIONS.stream().sorted().toList()), false));
    }
    return Optional.empty();
  }

  /** Who the bearer token says the caller is, or why it is refused; each token is looked up once. */
  private Outcome bearer(String authorization, String host, int port) {
    if (!requireBearer && authorization == null) {
      return new Passed(Caller.EXTERNAL);
    }
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return new Refusal(401, "missing 'Authorization: Bearer <token>'; sign in (OAuth) or send the MCP token in "
          + token.file() + " (see docs/mcp.md)", true);
    }
    String presented = authorization.substring(7).strip();
    if (token.matches(presented)) {
      return new Passed(Caller.EXTERNAL);
    }
    return switch (agents.lookup(presented)) {
      case AgentTokens.Live live -> new Passed(Caller.agent(live.task(), agents.toolsOf(live.task())));
      case AgentTokens.Revoked gone -> new Refusal(401,
          "this agent token for task " + gone.task() + " was revoked when its turn ended; a new turn gets a new token", true);
      case AgentTokens.Unknown unknown -> signedIn(presented, host, port);
    };
  }

  private Outcome signedIn(String presented, String host, int port) {
    McpAuthorization.Access access = authorization == null ? new McpAuthorization.NotIssued()
        : authorization.verify(presented, host, port, checkHost);
    return switch (access) {
      case McpAuthorization.Granted granted -> new Passed(Caller.EXTERNAL);
      case McpAuthorization.Expired expired -> new Refusal(401,
          "the access token expired; refresh it at the token endpoint or sign in again", true, "invalid_token");
      case McpAuthorization.ForeignAudience foreign -> new Refusal(401,
          "the access token was issued for " + foreign.resource() + ", not this endpoint", true, "invalid_token");
      case McpAuthorization.NotIssued unknown -> new Refusal(401, "the bearer token is neither this hub's MCP token ("
          + token.file() + ") nor a live agent token or signed-in client's access token", true, "invalid_token");
    };
  }

  private boolean originAllowed(String origin) {
    String normalized = origin.strip().toLowerCase(Locale.ROOT);
    if (allowedOrigins.contains(normalized)) {
      return true;
    }
    try {
      URI uri = URI.create(normalized);
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null
          && LOOPBACK_HOSTS.contains(uri.getHost())
          && (uri.getPath() == null || uri.getPath().isEmpty());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String hostName(String hostHeader) {
    String host = hostHeader.strip().toLowerCase(Locale.ROOT);
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end < 0 ? host : host.substring(0, end + 1);
    }
    int colon = host.lastIndexOf(':');
    return colon < 0 ? host : host.substring(0, colon);
  }
}
