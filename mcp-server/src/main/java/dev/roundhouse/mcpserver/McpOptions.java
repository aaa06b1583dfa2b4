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
 */
record McpOptions(
    Random random,
    Duration heartbeat,
    boolean requireBearer,
    List<SyncToolSpecification> extraTools,
    List<SyncResourceSpecification> extraResources,
    List<SyncResourceTemplateSpecification> extraTemplates,
    List<SyncPromptSpecification> extraPrompts,
    List<SyncCompletionSpecification> extraCompletions) {

  static final McpOptions DEFAULTS =
      new McpOptions(new SecureRandom(), Duration.ofSeconds(5), true, List.of(), List.of(), List.of(), List.of(), List.of());

  McpOptions withRandom(Random source) {
    return new McpOptions(source, heartbeat, requireBearer, extraTools, extraResources, extraTemplates, extraPrompts, extraCompletions);
  }

  McpOptions withHeartbeat(Duration every) {
    return new McpOptions(random, every, requireBearer, extraTools, extraResources, extraTemplates, extraPrompts, extraCompletions);
  }

  boolean extraTool(String name) {
    return extraTools.stream().anyMatch(tool -> tool.tool().name().equals(name));
  }
}
