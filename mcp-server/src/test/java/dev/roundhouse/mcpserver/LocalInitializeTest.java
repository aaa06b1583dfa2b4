package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stdio relay's own answer to {@code initialize} ({@link LocalInitialize}) against the hub's real MCP server:
 * the same answer for every protocol version a client may ask for, nothing answered that is not a plain
 * {@code initialize}, and the answer written before the relay has found the hub.
 */
class LocalInitializeTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private TestHub hub;
  private String token;
  private HttpClient http;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withMounts(config -> config, h -> List.of(McpServers.streamableHttp(h)));
    token = Files.readString(McpServers.tokenFile(hub.home())).strip();
    http = HttpClient.newHttpClient();
  }

  @AfterEach
  void stop() {
    http.close();
    hub.close();
  }

  private static String initialize(String id, String version) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + version
        + "\",\"capabilities\":{\"roots\":{\"listChanged\":true}},\"clientInfo\":{\"name\":\"local-init\",\"version\":\"1\"}}}";
  }

  private JsonNode hubAnswer(String line) throws Exception {
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(hub.server().url() + McpServers.PATH))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(line)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
    return Json.mapper().readTree(answer.body());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-03-26", "2025-06-18", "2025-11-25", "2024-11-05", "1999-01-01", ""})
  void theRelaysAnswerIsTheHubServersAnswerForEveryVersionAsked(String version) throws Exception {
    for (String id : List.of("7", "-3", "\"a-string\"", "9007199254740993")) {
      String line = initialize(id, version);
      String local = LocalInitialize.answer(line).orElseThrow();
      assertThat(Json.mapper().readTree(local)).as("asked %s with id %s", version, id).isEqualTo(hubAnswer(line));
    }
  }

  @Test
  void theVersionsTheRelayNegotiatesAreTheSdkServersOwn() {
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder().build();
    assertThat(ServerIdentity.PROTOCOL_VERSIONS).containsExactlyInAnyOrderElementsOf(transport.protocolVersions());
    assertThat(ServerIdentity.PROTOCOL_VERSIONS.getLast()).isEqualTo(transport.protocolVersions().stream().max(String::compareTo).orElseThrow());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}}",
      "{\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":[\"2025-06-18\"]}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":20250618,\"capabilities\":{},\"clientInfo\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"clientInfo\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":[],\"clientInfo\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}} garbage",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}}{}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}},\"extra\":1}",
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}",
      "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{}}}]",
      "not json",
  })
  void anythingButAPlainInitializeIsLeftToTheHub(String line) {
    assertThat(LocalInitialize.answer(line)).isEmpty();
  }

  @Test
  void theClientIsAnsweredBeforeTheRelayFindsTheHubAndTheSessionFollows() throws Exception {
    CountDownLatch located = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger asked = new AtomicInteger();
    HubLocator slow = mayStart -> {
      asked.incrementAndGet();
      located.countDown();
      try {
        if (!release.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
          throw new IllegalStateException("never released");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      return hub.server().url();
    };
    BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    PipedOutputStream stdin = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(stdin, 1 << 16);
    StdioBridge bridge = new StdioBridge(null, slow, () -> token, lines(stdout), true);
    Thread relay = Thread.ofVirtual().start(() -> bridge.run(in));
    try {
      String hello = initialize("1", "2025-06-18");
      send(stdin, hello);
      String answer = stdout.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      assertThat(answer).as("the answer to initialize").isNotNull();
      assertThat(Json.mapper().readTree(answer)).isEqualTo(hubAnswer(hello));
      assertThat(located.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as("the relay goes on to find the hub").isTrue();
      assertThat(bridge.session()).as("no session while the hub is not found yet").isNull();
      release.countDown();
      send(stdin, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      send(stdin, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
      String tools = stdout.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      assertThat(tools).as("tools/list answered in the session").isNotNull();
      JsonNode list = Json.mapper().readTree(tools);
      assertThat(list.path("id").asInt()).isEqualTo(2);
      assertThat(list.path("result").path("tools").size()).as(tools).isPositive();
      assertThat(stdout).as("the hub's own answer to initialize is not passed on").isEmpty();
      assertThat(bridge.session()).isNotNull();
      assertThat(asked.get()).as("the hub located once").isEqualTo(1);
    } finally {
      release.countDown();
      stdin.close();
      relay.join(DEADLINE);
    }
  }

  private static void send(PipedOutputStream stdin, String line) throws IOException {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  private static Writer lines(BlockingQueue<String> stdout) {
    return new Writer() {
      private final StringBuilder line = new StringBuilder();

      @Override
      public void write(char[] buffer, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
          if (buffer[i] == '\n') {
            stdout.add(line.toString());
            line.setLength(0);
          } else {
            line.append(buffer[i]);
          }
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }
}
