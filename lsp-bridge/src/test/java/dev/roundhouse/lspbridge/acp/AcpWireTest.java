package dev.roundhouse.lspbridge.acp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.lspbridge.PaddedMessage;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Raw newline-delimited JSON against {@code roundhouse acp} in process: bad input gets errors, never an end. */
class AcpWireTest {
  private final List<String> models = new CopyOnWriteArrayList<>();
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private TestHub hub;
  private String web;
  private OutputStream toAgent;
  private OutputStream agentOut;
  private BufferedReader fromAgent;
  private CompletableFuture<Integer> exit;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withDrivers(c -> c, List.of(new TestDriver("t", false, (request, context) -> {
      models.add(String.valueOf(request.model()));
      if (request.message().equals("hold")) {
        held.countDown();
        release.await(); // a turn that runs until the test lets it go
      }
      context.emit(new TurnEvent.AssistantMessage("done"));
    })));
    web = hub.folder("web");
    hub.http().op("project_create", Map.of("name", "web", "path", web, "default_agent", "t"));
    Pipe in = Pipe.open();
    Pipe out = Pipe.open();
    toAgent = Channels.newOutputStream(in.sink());
    fromAgent = new BufferedReader(new InputStreamReader(Channels.newInputStream(out.source()), StandardCharsets.UTF_8));
    InputStream agentIn = Channels.newInputStream(in.source());
    agentOut = Channels.newOutputStream(out.sink());
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
    release.countDown();
    hub.close();
  }

  private JsonNode exchange(String line) throws Exception {
    toAgent.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    toAgent.flush();
    return Json.mapper().readTree(fromAgent.readLine());
  }

  /** Sends a request and returns its response, skipping the notifications that come before it. */
  private JsonNode call(int id, String method, Map<String, Object> params) throws Exception {
    toAgent.write((Json.write(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params)) + "\n").getBytes(StandardCharsets.UTF_8));
    toAgent.flush();
    while (true) {
      JsonNode message = Json.mapper().readTree(fromAgent.readLine());
      if (message.path("id").asInt(-1) == id && !message.has("method")) {
        return message;
      }
    }
  }

  @Test
  void configOptionsOfferDriversModelsAndPermissionModesAndTheChosenModelReachesTheTurn() throws Exception {
    call(1, "initialize", Map.of("protocolVersion", 1));
    JsonNode session = call(2, "session/new", Map.of("cwd", web, "mcpServers", List.of())).path("result");
    String id = session.path("sessionId").asText();
    JsonNode options = session.path("configOptions");
    assertThat(options.findValuesAsText("id")).containsExactly("driver", "model", "permission_mode");
    assertThat(option(options, "driver").path("currentValue").asText()).isEqualTo("t");
    assertThat(option(options, "driver").path("category").asText()).isEqualTo("mode");
    assertThat(option(options, "model").path("options").findValuesAsText("value")).containsExactly("default", "test-model");

    JsonNode changed = call(3, "session/set_config_option", Map.of("sessionId", id, "configId", "model", "value", "test-model"));
    assertThat(option(changed.path("result").path("configOptions"), "model").path("currentValue").asText()).isEqualTo("test-model");
    JsonNode prompt = call(4, "session/prompt", Map.of("sessionId", id, "prompt", List.of(Map.of("type", "text", "text", "go"))));
    assertThat(prompt.path("result").path("stopReason").asText()).isEqualTo("end_turn");
    assertThat(models).containsExactly("test-model");

    assertThat(call(5, "session/set_config_option", Map.of("sessionId", id, "configId", "model", "value", "gpt-9")).path("error").path("message").asText())
        .contains("'gpt-9' is not a choice of model; the choices are default, test-model");
    assertThat(call(6, "session/set_config_option", Map.of("sessionId", id, "configId", "colour", "value", "red")).path("error").path("code").asInt())
        .isEqualTo(-32602);
    assertThat(call(7, "session/set_config_option", Map.of("sessionId", id, "configId", "driver", "value", "nope")).path("error").path("message").asText())
        .contains("'nope' is not a choice of driver; the choices are t");
    JsonNode loaded = call(8, "session/load", Map.of("sessionId", id, "cwd", web, "mcpServers", List.of())).path("result");
    assertThat(option(loaded.path("configOptions"), "model").path("currentValue").asText()).isEqualTo("test-model");
  }

  private static JsonNode option(JsonNode options, String id) {
    for (JsonNode option : options) {
      if (option.path("id").asText().equals(id)) {
        return option;
      }
    }
    throw new AssertionError("no config option " + id + " in " + options);
  }

  @Test
  void theEndOfTheInputAnswersEveryRequestReadARunningPromptWithCancelled() throws Exception {
    call(1, "initialize", Map.of("protocolVersion", 1));
    String id = call(2, "session/new", Map.of("cwd", web, "mcpServers", List.of())).path("result").path("sessionId").asText();
    toAgent.write((Json.write(Map.of("jsonrpc", "2.0", "id", 3, "method", "session/prompt",
        "params", Map.of("sessionId", id, "prompt", List.of(Map.of("type", "text", "text", "hold"))))) + "\n").getBytes(StandardCharsets.UTF_8));
    toAgent.flush();
    assertThat(held.await(10, TimeUnit.SECONDS)).as("the turn started").isTrue();
    toAgent.write("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/list\",\"params\":{}}\n".getBytes(StandardCharsets.UTF_8));
    toAgent.close();

    assertThat(exit.get(10, TimeUnit.SECONDS)).isZero(); // while the turn still runs in the hub
    agentOut.close(); // as the process's stdout closes when it exits
    Map<Integer, JsonNode> answers = new java.util.HashMap<>();
    for (String line; (line = fromAgent.readLine()) != null; ) {
      JsonNode message = Json.mapper().readTree(line);
      if (message.has("id") && !message.has("method")) {
        answers.put(message.get("id").asInt(), message);
      }
    }
    assertThat(answers.get(3).path("result").path("stopReason").asText()).isEqualTo("cancelled");
    assertThat(answers.get(4).path("result").path("sessions").findValuesAsText("sessionId")).contains(id);
  }

  /**
   * A 200 MB line (made as it is sent, never held by the test) is refused with -32600 naming the cap, read
   * away without being held, and the next line answered: a request by its id, a line whose id cannot be read
   * with a null id, a notification not at all.
   */
  @Test
  void aLinePastTheCapIsRefusedAndTheNextLineAnswered() throws Exception {
    PaddedMessage.request(7, "session/prompt", 200L << 20).transferTo(toAgent);
    toAgent.write('\n');
    JsonNode refused = exchange("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}");
    assertThat(refused.path("id").asInt()).isEqualTo(7);
    assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(refused.path("error").path("message").asText())
        .isEqualTo("the message is 209715200 bytes long; roundhouse acp accepts at most 16777216 bytes (16 MiB) per line");
    assertThat(Json.mapper().readTree(fromAgent.readLine()).path("result").path("protocolVersion").asInt()).isEqualTo(1);

    new PaddedMessage("", 17L << 20, "").transferTo(toAgent); // no JSON to read an id from
    toAgent.write('\n');
    JsonNode anonymous = Json.mapper().readTree(fromAgent.readLine());
    assertThat(anonymous.get("id").isNull()).isTrue();
    assertThat(anonymous.path("error").path("code").asInt()).isEqualTo(-32600);

    new PaddedMessage("{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\",\"params\":{\"x\":\"", 17L << 20, "\"}}\n").transferTo(toAgent);
    assertThat(call(9, "initialize", Map.of("protocolVersion", 1)).path("result").path("protocolVersion").asInt()).isEqualTo(1);
  }

  @Test
  void aLineJustWithinTheCapIsRead() throws Exception {
    String head = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1,\"pad\":\"";
    PaddedMessage line = new PaddedMessage(head, AcpConnection.MAX_LINE - head.length() - 3, "\"}}");
    assertThat(line.length()).isEqualTo(AcpConnection.MAX_LINE);
    line.transferTo(toAgent);
    toAgent.write('\n');
    toAgent.flush();
    assertThat(Json.mapper().readTree(fromAgent.readLine()).path("result").path("protocolVersion").asInt()).isEqualTo(1);
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
