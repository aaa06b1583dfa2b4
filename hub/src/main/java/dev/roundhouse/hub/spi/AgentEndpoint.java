package dev.roundhouse.hub.spi;

import java.net.URI;
import java.util.Objects;

/**
 * Where a turn's agent reaches the hub's MCP endpoint as itself: the endpoint's URL and a bearer token
 * scoped to the task, so every write the agent makes through it is recorded as {@code agent:<task>}. The
 * token is valid until the turn ends. Immutable.
 *
 * @param url the Streamable HTTP endpoint, such as {@code http://127.0.0.1:7411/mcp}
 * @param bearerToken the task-scoped token, sent as {@code Authorization: Bearer <token>}
 * @param taskId the task the token acts for
 */
public record AgentEndpoint(URI url, String bearerToken, long taskId) {
  public AgentEndpoint {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(bearerToken, "bearerToken");
  }

  /** Never prints the token. */
  @Override
  public String toString() {
    return "AgentEndpoint[" + url + ", task " + taskId + "]";
  }
}
