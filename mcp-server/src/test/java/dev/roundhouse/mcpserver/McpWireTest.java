package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.RawHttp;
import dev.roundhouse.hub.testing.TestHub;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.Writer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The MCP endpoint against exactly the bytes a careless client sends: every request with an id gets exactly one
 * JSON-RPC answer, over HTTP and through the stdio relay ({@link StdioBridge}, what {@code roundhouse mcp} runs),
 * and no refusal is a 500 or names a Java class.
 */
class McpWireTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private TestHub hub;
  private String token;
  private RawSessions sessions;
  private String session;

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withMounts(config -> config, h -> List.of(McpServers.streamableHttp(h)));
    token = Files.readString(McpServers.tokenFile(hub.home())).strip();
    sessions = new RawSessions(hub.server().url(), token);
    session = sessions.initialize("wire");
    sessions.post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  }

  @AfterEach
  void stop() {
    sessions.close();
    hub.close();
  }

  /** The JSON-RPC messages of an answer: its JSON body, or each event of its SSE stream. */
  private static List<JsonNode> messages(HttpResponse<String> answer) throws IOException {
    List<JsonNode> messages = new ArrayList<>();
    String type = answer.headers().firstValue("Content-Type").orElse("");
    if (type.startsWith("text/event-stream")) {
      SseMessages.forEach(new ByteArrayInputStream(answer.body().getBytes(StandardCharsets.UTF_8)), messages::add);
    } else if (!answer.body().isBlank()) {
      messages.add(Json.mapper().readTree(answer.body()));
    }
    return messages;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "params an array    | {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":[\"task_get\"]}                          | -32602 | params",
      "params a string    | {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":\"task_get\"}                            | -32602 | params",
      "arguments an array | {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"task_get\",\"arguments\":[1]}} | -32602 | params.arguments",
      "name not a string  | {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":5}}                               | -32602 | params.name",
      "jsonrpc 1.0        | {\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ping\"}                                                           | -32600 | jsonrpc",
      "no jsonrpc         | {\"id\":7,\"method\":\"ping\"}                                                                                | -32600 | jsonrpc",
      "unknown log level  | {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"loud\"}}               | -32602 | params.level",
  })
  void aBadRequestGetsExactlyOneErrorNamingTheField(String what, String body, int code, String field) throws Exception {
    HttpResponse<String> answer = sessions.post(session, body);
    assertThat(answer.statusCode()).as(answer.body()).isLessThan(500);
    List<JsonNode> messages = messages(answer);
    assertThat(messages).as("%s: %s", what, answer.body()).hasSize(1);
    JsonNode error = messages.get(0);
    assertThat(error.path("id").asInt()).as(error.toString()).isEqualTo(7);
    assertThat(error.path("error").path("code").asInt()).as(error.toString()).isEqualTo(code);
    assertThat(error.path("error").path("message").asText()).as(error.toString()).contains(field).doesNotContain("java.", "Exception");
    assertSessionGoesOn();
  }

  @ParameterizedTest(name = "id {0}")
  @CsvSource(delimiter = '|', value = {"{\"a\":1}", "[1]", "true", "1.5"})
  void anIdThatIsNeitherAStringNorAWholeNumberIsRefusedWithoutNamingJavaClasses(String id) throws Exception {
    HttpResponse<String> answer = sessions.post(session, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
    List<JsonNode> messages = messages(answer);
    assertThat(messages).as(answer.body()).hasSize(1);
    assertThat(messages.get(0).path("id").isNull()).isTrue();
    assertThat(messages.get(0).path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(messages.get(0).path("error").path("message").asText()).contains("id")
        .doesNotContain("java", "Map", "class", "Exception");
    assertSessionGoesOn();
  }

  @Test
  void aResponseWithAnUnknownIdIsAcceptedOrRefusedButNeverA500() throws Exception {
    HttpResponse<String> answer = sessions.post(session, "{\"jsonrpc\":\"2.0\",\"id\":424242,\"result\":{}}");
    assertThat(answer.statusCode()).as(answer.body()).isLessThan(500);
    assertThat(answer.body()).doesNotContain("Exception");
    assertSessionGoesOn();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "trailing garbage | {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"} garbage",
      "two objects      | {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}",
      "duplicate key    | {\"jsonrpc\":\"2.0\",\"id\":7,\"id\":8,\"method\":\"ping\"}",
  })
  void jsonWithTrailingContentOrADuplicateKeyIsAParseError(String what, String body) throws Exception {
    HttpResponse<String> answer = sessions.post(session, body);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
    List<JsonNode> messages = messages(answer);
    assertThat(messages).as(answer.body()).hasSize(1);
    assertThat(messages.get(0).path("error").path("code").asInt()).isEqualTo(-32700);
    assertSessionGoesOn();
  }

  @Test
  void aContentLengthPast2To63IsAJsonRpc400() {
    RawHttp.Answer answer = RawHttp.exchange(hub.server().port(), "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + token + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        + "Content-Length: 99999999999999999999\r\nConnection: close\r\n\r\n{}");
    assertThat(answer.status()).as("%s", answer).isEqualTo(400);
    assertThat(answer.json().path("jsonrpc").asText()).as("%s", answer).isEqualTo("2.0");
    assertThat(answer.json().path("error").path("code").asInt()).isEqualTo(-32600);
  }

  @Test
  void twoOriginHeadersAreRefused() {
    RawHttp.Answer answer = RawHttp.exchange(hub.server().port(), "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + token + "\r\nOrigin: http://127.0.0.1\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\n"
        + "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + session + "\r\nContent-Length: 40\r\n"
        + "Connection: close\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assertThat(answer.status()).as("%s", answer).isEqualTo(403);
    assertThat(answer.json().path("error").path("message").asText()).contains("Origin");
  }

  @Test
  void thePostWithoutContentTypeIsRefused() throws Exception {
    RawHttp.Answer answer = RawHttp.exchange(hub.server().port(), "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + token + "\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: " + session + "\r\nContent-Length: 40\r\n"
        + "Connection: close\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assertThat(answer.status()).as("%s", answer).isBetween(400, 499);
    assertThat(answer.json().path("jsonrpc").asText()).isEqualTo("2.0");
  }

  @Test
  void throughTheStdioRelayEachBadRequestGetsExactlyOneLine() throws Exception {
    BlockingQueue<JsonNode> stdout = new LinkedBlockingQueue<>();
    PipedOutputStream stdin = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(stdin, 1 << 16);
    StdioBridge bridge = new StdioBridge(hub.server().url(), mayStart -> hub.server().url(), () -> token, lines(stdout));
    Thread relay = Thread.ofVirtual().start(() -> bridge.run(in));
    try {
      send(stdin, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"stdio-wire\",\"version\":\"1\"}}}");
      assertThat(stdout.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isNotNull();
      send(stdin, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      String[] bad = {
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":[\"task_get\"]}",
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":\"task_get\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"task_get\",\"arguments\":[1]}}",
          "{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"loud\"}}",
      };
      for (String line : bad) {
        send(stdin, line);
        JsonNode answer = stdout.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertThat(answer).as("an answer to %s", line).isNotNull();
        assertThat(answer.path("id").asInt()).as(answer.toString()).isEqualTo(Json.mapper().readTree(line).path("id").asInt());
        assertThat(answer.path("error").path("code").asInt()).as(answer.toString()).isIn(-32600, -32602);
      }
      send(stdin, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}");
      JsonNode pong = stdout.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      assertThat(pong).isNotNull();
      assertThat(pong.path("id").asInt()).as("no second answer to an earlier request: %s", pong).isEqualTo(9);
      assertThat(stdout.poll(300, TimeUnit.MILLISECONDS)).as("nothing more").isNull();
    } finally {
      stdin.close();
      relay.join(DEADLINE);
    }
  }

  @Test
  void throughTheStdioRelayALineOverTheCapIsRefusedAndTheNextIsAnswered() throws Exception {
    BlockingQueue<JsonNode> stdout = new LinkedBlockingQueue<>();
    PipedOutputStream stdin = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(stdin, 1 << 16);
    StdioBridge bridge = new StdioBridge(hub.server().url(), mayStart -> hub.server().url(), () -> token, lines(stdout));
    Thread relay = Thread.ofVirtual().start(() -> bridge.run(in));
    try {
      send(stdin, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"stdio-cap\",\"version\":\"1\"}}}");
      assertThat(stdout.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isNotNull();
      byte[] chunk = "x".repeat(64 * 1024).getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < (3 * StdioBridge.MAX_LINE) / chunk.length; i++) {
        stdin.write(chunk);
      }
      send(stdin, "");
      JsonNode refusal = stdout.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      assertThat(refusal).isNotNull();
      assertThat(refusal.path("error").path("code").asInt()).as(refusal.toString()).isEqualTo(-32600);
      assertThat(refusal.path("error").path("message").asText()).contains("at most " + StdioBridge.MAX_LINE);
      send(stdin, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
      JsonNode pong = stdout.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      assertThat(pong).isNotNull();
      assertThat(pong.path("id").asInt()).isEqualTo(2);
    } finally {
      stdin.close();
      relay.join(DEADLINE);
    }
  }

  private void assertSessionGoesOn() throws Exception {
    HttpResponse<String> pong = sessions.post(session, "{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}");
    assertThat(pong.statusCode()).as(pong.body()).isEqualTo(200);
    assertThat(messages(pong)).singleElement().satisfies(m -> assertThat(m.path("id").asText()).isEqualTo("after"));
  }

  private static void send(PipedOutputStream stdin, String line) throws IOException {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  private static Writer lines(BlockingQueue<JsonNode> stdout) {
    return new Writer() {
      private final StringBuilder line = new StringBuilder();

      @Override
      public void write(char[] buffer, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
          if (buffer[i] == '\n') {
            stdout.add(Json.read(line.toString(), JsonNode.class));
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
