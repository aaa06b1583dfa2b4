package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.api.AgentToolsApi;
import dev.roundhouse.hub.core.Actor;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Set;

/**
 * Who a request to the MCP endpoint authenticated as: an external client (the MCP token), or the agent of
 * one task (a live task token). {@link GuardFilter} decides it per request; it travels to the tool and
 * resource handlers in the SDK's transport context. Immutable.
 *
 * @param agentTask the task whose agent is calling, or null for an external client
 * @param agentTools the tools that agent is offered (the agents' tools, plus those of extensions that own its
 *     task); empty for an external client, which is offered every operation
 */
record Caller(Long agentTask, Set<String> agentTools) {
  static final Caller EXTERNAL = new Caller(null, Set.of());
  /** The servlet request attribute and transport-context key carrying the caller. */
  static final String KEY = "roundhouse.caller";
  /** The actor's client name when an external client did not say who it is. */
  static final String UNNAMED_CLIENT = "mcp";

  Caller {
    agentTools = Set.copyOf(agentTools);
  }

  static Caller agent(long task, Set<String> tools) {
    return new Caller(task, tools);
  }

  boolean isAgent() {
    return agentTask != null;
  }

  /** Whether this caller may call {@code tool}: agents their task's agent tools only, external clients any. */
  boolean offered(String tool) {
    return !isAgent() || agentTools.contains(tool);
  }

  /**
   * Whether {@code tool} is in this caller's {@code tools/list}: one name per operation. Agents see their
   * roster (the agents' names, such as {@code get_task}); external clients the hub's names ({@code task_get}),
   * not the agents' twins of them ({@link AgentToolsApi#HUB_TWINS}) nor {@code ask_user}, which answers only
   * in a turn. An external client that calls an agent's name still gets its answer.
   */
  boolean listed(String tool) {
    return isAgent() ? agentTools.contains(tool) : !AgentToolsApi.HUB_TWINS.containsKey(tool) && !tool.equals("ask_user");
  }

  McpTransportContext context() {
    return McpTransportContext.create(Map.of(KEY, this));
  }

  static Caller of(McpTransportContext context) {
    Object caller = context == null ? null : context.get(KEY);
    return caller instanceof Caller known ? known : EXTERNAL;
  }

  static Caller of(McpSyncServerExchange exchange) {
    return of(exchange.transportContext());
  }

  /** The actor a call runs as: {@code agent:<task>}, or {@code client:<clientInfo.name>} ({@code client:mcp} unnamed). */
  static Actor actor(McpSyncServerExchange exchange) {
    return of(exchange).actor(exchange.getClientInfo());
  }

  /** The actor this caller's calls run as, in a session whose client said it is {@code client} (may be null). */
  Actor actor(McpSchema.Implementation client) {
    if (isAgent()) {
      return Actor.agent(agentTask);
    }
    String name = client == null || client.name() == null || client.name().isBlank() ? UNNAMED_CLIENT : client.name().strip();
    return Actor.client(name);
  }
}
