package dev.roundhouse.mcpserver.oauth;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationRegistry;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code mcp_client_list} and {@code mcp_client_revoke}: the MCP clients that registered with the hub's
 * authorization server, whether they hold tokens, and forgetting one (its tokens stop working at once). Stateless
 * but for what it is given; thread-safe.
 */
final class McpClientOperations {
  private McpClientOperations() {}

  /** No input. */
  public record NoInput() {}

  /** One registered MCP client. */
  public record McpClient(
      String clientId,
      String clientName,
      List<String> redirectUris,
      Instant registeredAt,
      @JsonPropertyDescription("True while it holds a refresh token that has not expired") boolean authorized,
      Instant grantedAt,
      Instant accessTokenExpiresAt,
      Instant refreshTokenExpiresAt) {}

  public record McpClientList(List<McpClient> clients) {}

  public record McpClientRef(@JsonProperty(required = true) @JsonPropertyDescription("The client_id, from mcp_client_list") String clientId) {}

  public record McpClientRevoked(String clientId, String clientName, boolean hadTokens) {}

  /** Registers both; with a null {@code authorization}, for their descriptions only. */
  static void register(OperationRegistry registry, McpAuthorization authorization, java.time.Clock clock) {
    registry.register(Operation.of(
        "mcp_client_list",
        "The MCP clients that signed in through the hub's OAuth authorization server (Claude Code, VS Code, Cursor, ...):"
            + " where each returns to, and whether and until when it holds tokens. The static mcp-token is not listed.",
        NoInput.class, McpClientList.class, OperationAnnotations.READ, (actor, in) -> list(authorization, clock)));
    registry.register(Operation.of(
        "mcp_client_revoke",
        "Forget an MCP client: its access and refresh tokens stop working at once and its registration is deleted, so it"
            + " must register and be approved again.",
        McpClientRef.class, McpClientRevoked.class, OperationAnnotations.DESTRUCTIVE, (actor, in) -> revoke(authorization, in)));
  }

  private static McpClientList list(McpAuthorization authorization, java.time.Clock clock) {
    Map<String, Grants.Grant> grants = authorization.grants().list().stream()
        .collect(Collectors.toMap(Grants.Grant::clientId, Function.identity(), (a, b) -> a));
    Instant now = clock.instant();
    return new McpClientList(authorization.clients().list().stream()
        .sorted(Comparator.comparing(Clients.Client::registeredAt))
        .map(client -> {
          Grants.Grant grant = grants.get(client.clientId());
          return new McpClient(client.clientId(), client.clientName(), client.redirectUris(), client.registeredAt(),
              grant != null && now.isBefore(grant.refreshExpiresAt()), grant == null ? null : grant.grantedAt(),
              grant == null ? null : grant.accessExpiresAt(), grant == null ? null : grant.refreshExpiresAt());
        }).toList());
  }

  private static McpClientRevoked revoke(McpAuthorization authorization, McpClientRef ref) {
    Clients.Client client = authorization.clients().get(ref.clientId()).orElseThrow(() ->
        new RoundhouseException.NotFound("no MCP client '" + ref.clientId() + "'; mcp_client_list names them"));
    boolean hadTokens = authorization.grants().revoke(client.clientId());
    authorization.clients().forget(client.clientId());
    return new McpClientRevoked(client.clientId(), client.clientName(), hadTokens);
  }
}
