package dev.roundhouse.lspbridge;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.roundhouse.hub.testing.TestHub;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bridge fed raw bytes: what a broken or unusual client sends must never end it. */
class LspWireTest {
  private TestHub hub;
  private BridgeFixture bridge;

  @BeforeEach
  void start() {
    hub = TestHub.start();
    bridge = BridgeFixture.start(hub);
  }

  @AfterEach
  void stop() throws Exception {
    try {
      bridge.close();
    } finally {
      hub.close();
    }
  }

  private void send(String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    bridge.rawOut.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    bridge.rawOut.write(body);
    bridge.rawOut.flush();
  }

  private void sendBytes(String raw) throws IOException {
    bridge.rawOut.write(raw.getBytes(StandardCharsets.UTF_8));
    bridge.rawOut.flush();
  }

  /** The next message with this id (notifications and other responses are skipped). */
  private JsonObject response(int id) throws IOException {
    while (true) {
      JsonObject message = read(bridge.rawIn);
      if (message.has("id") && !message.get("id").isJsonNull() && message.get("id").getAsInt() == id && !message.has("method")) {
        return message;
      }
    }
  }

  private static JsonObject read(InputStream in) throws IOException {
    int length = -1;
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the bridge closed its output");
      }
      if (b == '\n') {
        String header = line.toString(StandardCharsets.US_ASCII).strip();
        line.reset();
        if (header.isEmpty()) {
          break;
        }
        if (header.toLowerCase().startsWith("content-length:")) {
          length = Integer.parseInt(header.substring("content-length:".length()).strip());
        }
      } else {
        line.write(b);
      }
    }
    return JsonParser.parseString(new String(in.readNBytes(length), StandardCharsets.UTF_8)).getAsJsonObject();
  }

  private void initialize() throws IOException {
    send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}");
    assertThat(response(1).getAsJsonObject("result").toString()).contains("roundhouse");
    send("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  }

  private void assertStillServing(int id) throws IOException {
    send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"roundhouse/call\",\"params\":{\"name\":\"project_list\"}}");
    assertThat(response(id).has("result")).as("the bridge still answers").isTrue();
  }

  @Test
  void unknownMethodsGetMethodNotFound() throws IOException {
    initialize();
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/nothing\",\"params\":{}}");
    assertThat(response(2).getAsJsonObject("error").get("code").getAsInt()).isEqualTo(-32601);
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"textDocument/frobnicate\",\"params\":{}}");
    assertThat(response(3).getAsJsonObject("error").get("code").getAsInt()).isEqualTo(-32601);
    send("{\"jsonrpc\":\"2.0\",\"method\":\"roundhouse/unknownNotification\",\"params\":{}}");
    assertStillServing(4);
  }

  @Test
  void unknownDollarRequestsGetMethodNotFoundToo() throws IOException {
    initialize();
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"$/roundhouseNothing\",\"params\":{}}");
    JsonObject answer = response(2);
    assertThat(answer.has("error")).as("answer to an unknown $/ request: " + answer).isTrue();
    assertThat(answer.getAsJsonObject("error").get("code").getAsInt()).isEqualTo(-32601);
  }

  @Test
  void malformedParamsGetInvalidParamsNamingTheField() throws IOException {
    initialize();
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/answerDecision\",\"params\":{\"decision\":1}}");
    JsonObject error = response(2).getAsJsonObject("error");
    assertThat(error.get("code").getAsInt()).isEqualTo(-32602);
    assertThat(error.get("message").getAsString()).contains("params.answer is required");
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"roundhouse/call\",\"params\":\"task_list\"}");
    assertThat(response(3).getAsJsonObject("error").get("code").getAsInt()).isEqualTo(-32602);
    assertStillServing(4);
  }

  @Test
  void theBridgeSurvivesGarbageInput() throws IOException {
    initialize();
    send("{this is not json");
    send("[1,2,3]");
    send("{\"jsonrpc\":\"2.0\",\"id\":7}");
    send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":42}");
    sendBytes("Content-Length: nope\r\n\r\n");
    sendBytes("garbage without any header\r\n\r\n");
    sendBytes("Content-Type: text/plain\r\n\r\n");
    assertStillServing(9);
    assertThat(bridge.exit).isNotDone();
  }

  @Test
  void exitWithoutShutdownEndsTheBridgeWithStatusOne() throws Exception {
    initialize();
    send("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    assertThat(bridge.exit.get(10, TimeUnit.SECONDS)).isEqualTo(1);
  }
}
