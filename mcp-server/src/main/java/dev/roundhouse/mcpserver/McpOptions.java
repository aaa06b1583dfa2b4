package dev.roundhouse.mcpserver;

import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * How the MCP endpoint is built. The product uses {@link #DEFAULTS}; the rest exists for tests only and is
 * package-private: a fixed random source, a short progress heartbeat, and the conformance suite's fixtures
 * with the bearer check off (the suite cannot send a token). Immutable.
 *
 * @param random where agents' task tokens come from
 * @param heartbeat how often a call with a progress token reports that it is still running
 * @param requireBearer false only for the conformance test hub: no setting turns it off in the product
 * @param sessionIdle how long a session may go without a request (and without an open stream) before it is
 *     closed: the SDK's session sweep runs this often and closes the sessions that were idle since its last run,
 *     so a session ends between one and two of these after its last request ({@link #SESSION_IDLE} in the product)
 */
record McpOptions(
    Random random,
    Duration heartbeat,
    boolean requireBearer,
    Duration sessionIdle,
    List<SyncToolSpecification> extraTools,
    List<SyncResourceSpecification> extraResources,
    List<SyncResourceTemplateSpecification> extraTemplates,
    List<SyncPromptSpecification> extraPrompts,
    List<SyncCompletionSpecification> extraCompletions) {

  /** The product's session idle time: the SDK's own default, kept explicit here. */
  static final Duration SESSION_IDLE = Duration.ofMinutes(30);

  static final McpOptions DEFAULTS =
      new McpOptions(new SecureRandom(), Duration.ofSeconds(5), true, SESSION_IDLE, List.of(), List.of(), List.of(), List.of(), List.of());

  McpOptions withRandom(Random source) {
    return new McpOptions(source, heartbeat, requireBearer, sessionIdle, extraTools, extraResources, extraTemplates, extraPrompts, extraCompletions);
  }

  McpOptions withHeartbeat(Duration every) {
    return new McpOptions(random, every, requireBearer, sessionIdle, extraTools, extraResources, extraTemplates, extraPrompts, extraCompletions);
  }

  McpOptions withSessionIdle(Duration idle) {
    return new McpOptions(random, heartbeat, requireBearer, idle, extraTools, extraResources, extraTemplates, extraPrompts, extraCompletions);
  }

  boolean extraTool(String name) {
    return extraTools.stream().anyMatch(tool -> tool.tool().name().equals(name));
  }
}
