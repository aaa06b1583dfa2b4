package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.mcpserver.McpServers;
import dev.roundhouse.mcpserver.oauth.AuthorizationSettings;
import dev.roundhouse.mcpserver.oauth.McpAuthorization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code roundhouse mcp-client list|revoke} against a real hub whose MCP endpoint has its authorization server. */
class McpClientCommandTest {
  private TestHub hub;

  @BeforeEach
  void start() {
    McpAuthorization authorization = new McpAuthorization(AuthorizationSettings.DEFAULTS);
    hub = TestHub.withExtensionsAndMounts(c -> c, List.of(), List.of(authorization),
        h -> McpServers.withAuthorization(h, authorization));
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  @Test
  void listsRegisteredClientsAndRevokesOne() throws Exception {
    Context context = CliTestSupport.context(hub);
    assertThat(CliTestSupport.ok(context, "mcp-client", "list").out()).contains("no MCP client has signed in");
    HttpResponse<String> registered = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(hub.server().url() + "/oauth/register"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"client_name\":\"Cursor\",\"redirect_uris\":[\"cursor://anysphere.cursor-retrieval/oauth/callback\"]}"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(registered.statusCode()).isEqualTo(201);
    String clientId = dev.roundhouse.hub.core.Json.read(registered.body(), com.fasterxml.jackson.databind.JsonNode.class).path("client_id").asText();

    String listed = CliTestSupport.ok(context, "mcp-client", "list").out();
    assertThat(listed).contains(clientId).contains("Cursor").contains("cursor://anysphere.cursor-retrieval/oauth/callback");

    assertThat(CliTestSupport.ok(context, "mcp-client", "revoke", clientId).out()).contains("revoked Cursor (" + clientId + ")");
    assertThat(CliTestSupport.ok(context, "mcp-client", "list").out()).contains("no MCP client has signed in");
    CliResult missing = CliResult.run(context, "mcp-client", "revoke", clientId);
    assertThat(missing.exit()).isNotZero();
    assertThat(missing.err()).contains("no MCP client '" + clientId + "'");
  }
}
