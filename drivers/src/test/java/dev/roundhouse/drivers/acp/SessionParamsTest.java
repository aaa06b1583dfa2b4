package dev.roundhouse.drivers.acp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.model.McpServerSpec;
import dev.roundhouse.hub.spi.AgentEndpoint;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A face's MCP servers in an ACP agent's {@code session/new}: ACP's shapes, HTTP only when the agent takes it, values never printed. */
class SessionParamsTest {
  private static final List<McpServerSpec> SERVERS = List.of(
      McpServerSpec.stdio("notes", "node", List.of("notes.mjs"), Map.of("NOTES_TOKEN", "t0k3n")),
      McpServerSpec.http("docs", "http://127.0.0.1:9/mcp", Map.of("Authorization", "Bearer h3ader")));
  private static final Optional<AgentEndpoint> HUB = Optional.of(new AgentEndpoint(URI.create("http://127.0.0.1:7411/mcp"), "task-token", 7));

  @Test
  void stdioServersGoInAcpsShapeAndHttpOnesOnlyWhenTheAgentTakesThem() {
    List<SessionParams.McpServer> http = SessionParams.mcpServers(HUB, SERVERS, true);
    assertThat(AcpJson.tree(new SessionParams.NewSession("/src/web", http)).toString()).isEqualTo(
        "{\"cwd\":\"/src/web\",\"mcpServers\":["
            + "{\"type\":\"http\",\"name\":\"roundhouse\",\"url\":\"http://127.0.0.1:7411/mcp\",\"headers\":[{\"name\":\"Authorization\",\"value\":\"Bearer task-token\"}]},"
            + "{\"name\":\"notes\",\"command\":\"node\",\"args\":[\"notes.mjs\"],\"env\":[{\"name\":\"NOTES_TOKEN\",\"value\":\"t0k3n\"}]},"
            + "{\"type\":\"http\",\"name\":\"docs\",\"url\":\"http://127.0.0.1:9/mcp\",\"headers\":[{\"name\":\"Authorization\",\"value\":\"Bearer h3ader\"}]}]}");
    assertThat(SessionParams.mcpServers(HUB, SERVERS, false)).extracting(SessionParams.McpServer::name).containsExactly("notes");
    assertThat(SessionParams.secrets(SERVERS)).containsExactly("t0k3n", "Bearer h3ader");
    assertThat(http.toString()).doesNotContain("t0k3n").doesNotContain("h3ader").doesNotContain("task-token");
  }
}
