package dev.roundhouse.drivers.acp;

import dev.roundhouse.hub.core.RoundhouseException;

/**
 * The agent could not be started, did not answer as an ACP agent should, answered a request with an error,
 * or exited. The message is for a human: it names the agent and what went wrong, with the end of the
 * agent's stderr when it exited, and never holds the hub's MCP token. Immutable.
 */
final class AcpAgentException extends RoundhouseException {
  private static final long serialVersionUID = 1L;

  AcpAgentException(String message) {
    super("acp_agent_error", message);
  }

  AcpAgentException(String message, Throwable cause) {
    super("acp_agent_error", message, cause);
  }
}
