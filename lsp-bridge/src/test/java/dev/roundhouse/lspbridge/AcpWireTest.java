package dev.roundhouse.lspbridge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Json;
import dev.roundhouse.hub.testing.TestHub;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Raw newline-delimited JSON against {@code roundhouse acp} in process: bad input gets errors, never an end. */
class AcpWireTest {
  private TestHub hub;
  private OutputStream toAgent;
  private BufferedReader fromAgent;
  private CompletableFuture<Integer> exit;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.start();
    hub.http().op("project_create", Map.of("name", "web", "path", hub.folder("web")));
    Pipe in = Pipe.open();
    Pipe out = Pipe.open();
    toAgent = Channels.newOutputStream(in.sink());
    fromAgent = new BufferedReader(new InputStreamReader(Channels.newInputStream(out.source()), StandardCharsets.UTF_8));
    InputStream agentIn = Channels.newInputStream(in.source());
    OutputStream agentOut = Channels.newOutputStream(out.sink());
    HubAddress address = new HubAddress(hub.server().url(), hub.hub().token());
    exit = new CompletableFuture<>();
    Thread.ofVirtual().start(() -> {
      try {
        exit.complete(AcpAgent.serve(agentIn, agentOut, () -> address));
      } catch (Throwable t) {
        exit.completeExceptionally(t);
      }
    });
  }

  @AfterEach
  void stop() throws Exception {
    toAgent.close();
    assertThat(exit.get(10, TimeUnit.SECONDS)).isZero();
    hub.close();
  }

  private JsonNode exchange(String line) throws Exception {
    toAgent.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    toAgent.flush();
    return Json.mapper().readTree(fromAgent.readLine());
  }

  @Test
  void malformedMessagesGetJsonRpcErrorsAndTheAgentGoesOn() throws Exception {
    assertThat(exchange("this is not json").path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(exchange("[1,2]").path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(exchange("{\"jsonrpc\":\"2.0\",\"id\":1}").path("error").path("code").asInt()).isEqualTo(-32600);
    JsonNode unknown = exchange("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/teleport\",\"params\":{}}");
    assertThat(unknown.path("id").asInt()).isEqualTo(2);
    assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32601);
    JsonNode noCwd = exchange("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/new\",\"params\":{}}");
    assertThat(noCwd.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(noCwd.path("error").path("message").asText()).contains("params.cwd is required");
    JsonNode badSession = exchange("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"seven\",\"prompt\":[]}}");
    assertThat(badSession.path("error").path("message").asText()).contains("\"task-12\"");
    JsonNode noTask = exchange("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"task-999\",\"prompt\":[{\"type\":\"text\",\"text\":\"hi\"}]}}");
    assertThat(noTask.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(noTask.path("error").path("message").asText()).contains("999");

    JsonNode init = exchange("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}");
    assertThat(init.path("result").path("protocolVersion").asInt()).isEqualTo(1);
    assertThat(init.path("result").path("agentInfo").path("name").asText()).isEqualTo("roundhouse");
  }
}
