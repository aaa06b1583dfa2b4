package dev.roundhouse.hub.spi;

import java.util.Optional;

/**
 * Hands out task-scoped MCP endpoints to turns: the MCP face registers one with {@link
 * TurnRunner#useAgentEndpoints}; without one, turns get none and their agents run without the hub's tools.
 *
 * <p>Implementations must be thread-safe.
 */
public interface AgentEndpoints {

  /** No MCP endpoint is served. */
  AgentEndpoints NONE = new AgentEndpoints() {
    @Override
    public Optional<AgentEndpoint> open(long taskId) {
      return Optional.empty();
    }

    @Override
    public void close(AgentEndpoint endpoint) {}
  };

  /** A fresh endpoint (a new token) for the agent of {@code taskId}; empty when none can be served now. */
  Optional<AgentEndpoint> open(long taskId);

  /** Revokes the endpoint's token; later requests with it are refused. Idempotent. */
  void close(AgentEndpoint endpoint);
}
