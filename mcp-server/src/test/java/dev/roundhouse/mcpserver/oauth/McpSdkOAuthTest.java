package dev.roundhouse.mcpserver.oauth;

import dev.roundhouse.hub.testing.NodeProject;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.mcpserver.McpServers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The official MCP TypeScript SDK's OAuth client provider ({@code src/test/node/oauth.test.mjs}, run with
 * {@code node --test}) signs in to a real hub that has no token configured for it: discovery, dynamic registration,
 * PKCE, consent answered through the hub's {@code decision_answer} operation, tools listed, then revoked.
 */
class McpSdkOAuthTest {
  @Test
  void typeScriptSdkOAuthClientSignsInWithConsentGivenAsADecision() {
    NodeProject node = NodeProject.installed("mcp-server", "src", "test", "node");
    McpAuthorization authorization = new McpAuthorization(AuthorizationSettings.DEFAULTS);
    try (TestHub hub = TestHub.withExtensionsAndMounts(c -> c, List.of(), List.of(authorization),
        h -> McpServers.withAuthorization(h, authorization))) {
      String base = hub.server().url();
      node.assertNodeTestPasses("oauth.test.mjs", Map.of(
          "RH_MCP_URL", base + "/mcp", "RH_HUB_URL", base, "RH_HUB_TOKEN", hub.hub().token()));
    }
  }
}
