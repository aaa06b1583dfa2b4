package dev.roundhouse.lspbridge.lsp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.management.HotSpotDiagnosticMXBean;
import dev.roundhouse.lspbridge.PaddedMessage;
import dev.roundhouse.hub.testing.TestHub;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.eclipse.lsp4j.jsonrpc.RemoteEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The bridge fed raw bytes: what a broken or unusual client sends must never end it. */
class LspWireTest {
  private static final Duration DEADLINE = Duration.ofSeconds(10);

  private TestHub hub;
  private BridgeFixture bridge;
  private final BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
  private final List<JsonObject> everything = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    hub = TestHub.start();
    bridge = BridgeFixture.start(hub);
    Thread.ofVirtual().name("lsp-wire-test-reader").start(this::readAll);
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

  /** The answer to request {@code id} (notifications and other answers are skipped), within {@link #DEADLINE}. */
  private JsonObject response(int id) throws IOException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      JsonObject message;
      try {
        message = received.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for the answer to request " + id);
      }
      if (message == null) {
        throw new AssertionError("no answer to request " + id + " within " + DEADLINE + "; threads dumped to " + dumpThreads());
      }
      if (message.has("closed")) {
        throw new IOException("the bridge closed its output before answering request " + id);
      }
      if (message.has("id") && !message.get("id").isJsonNull() && message.get("id").getAsInt() == id && !message.has("method")) {
        return message;
      }
    }
  }

  /** The answers to requests {@code ids}, in whatever order they come, each within {@link #DEADLINE}. */
  private Map<Integer, JsonObject> responses(Set<Integer> ids) throws IOException {
    Map<Integer, JsonObject> answers = new HashMap<>();
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (answers.size() < ids.size()) {
      JsonObject message;
      try {
        message = received.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for the answers to " + ids);
      }
      if (message == null) {
        throw new AssertionError("answers to " + answers.keySet() + " of " + ids + " within " + DEADLINE + "; threads dumped to " + dumpThreads());
      }
      if (message.has("closed")) {
        throw new IOException("the bridge closed its output before answering " + ids);
      }
      if (message.has("id") && !message.get("id").isJsonNull() && !message.has("method") && ids.contains(message.get("id").getAsInt())) {
        answers.put(message.get("id").getAsInt(), message);
      }
    }
    return answers;
  }

  /** Every thread, virtual ones included, in a file under {@code target/}: what the bridge was doing. */
  private static Path dumpThreads() {
    try {
      Path file = Files.createTempFile(Path.of("target").toAbsolutePath(), "lsp-wire-threads-", ".txt");
      Files.delete(file);
      ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
      return file.toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads the bridge's output into {@link #received} and {@link #everything}; its end is a {@code {"closed": true}} entry. */
  private void readAll() {
    try {
      while (true) {
        JsonObject message = read(bridge.rawIn);
        everything.add(message);
        received.add(message);
      }
    } catch (IOException e) {
      JsonObject closed = new JsonObject();
      closed.addProperty("closed", true);
      received.add(closed);
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

  /**
   * Standard requests a language server may implement but this bridge does not (it serves no documents) are
   * method-not-found, with no Java stack trace in the answer.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/documentSymbol",
      "workspace/symbol", "workspace/executeCommand"})
  void standardRequestsTheBridgeDoesNotServeGetMethodNotFoundWithoutAStackTrace(String method) throws IOException {
    initialize();
    String params = method.startsWith("workspace/executeCommand") ? "{\"command\":\"x\",\"arguments\":[]}"
        : method.startsWith("workspace/") ? "{\"query\":\"x\"}"
        : "{\"textDocument\":{\"uri\":\"file:///tmp/a.txt\"},\"position\":{\"line\":0,\"character\":0}}";
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"" + method + "\",\"params\":" + params + "}");
    JsonObject error = response(2).getAsJsonObject("error");
    assertThat(error.get("code").getAsInt()).as("%s", error).isEqualTo(-32601);
    assertThat(error.get("message").getAsString()).contains(method);
    assertThat(error.toString()).doesNotContain("at org.").doesNotContain("Exception");
    assertStillServing(3);
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

  /** The error answering request {@code id}, checked to be -32602 naming what is wrong. */
  private String invalidParams(int id, String... named) throws IOException {
    JsonObject answer = response(id);
    assertThat(answer.has("error")).as("answer to request " + id + ": " + answer).isTrue();
    JsonObject error = answer.getAsJsonObject("error");
    assertThat(error.get("code").getAsInt()).as(error.toString()).isEqualTo(-32602);
    String message = error.get("message").getAsString();
    assertThat(message).contains(named);
    return message;
  }

  @Test
  void positionalParamsGetInvalidParamsNamingWhatIsWrong() throws IOException {
    initialize();
    send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"roundhouse/task\",\"params\":[{\"task\":1},null]}");
    invalidParams(5, "roundhouse/task", "params must be an object", "an array of 2");
    send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"roundhouse/task\",\"params\":[]}");
    invalidParams(6, "roundhouse/task", "params must be an object", "an array of 0");
    // params before method: LSP4J reads them before it knows the method
    send("{\"jsonrpc\":\"2.0\",\"params\":[1,2],\"id\":7,\"method\":\"roundhouse/task\"}");
    invalidParams(7, "roundhouse/task", "params must be an object", "an array of 2");
    send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"roundhouse/task\",\"params\":[\"seven\"]}");
    invalidParams(8, "roundhouse/task", "params must be an object", "\"seven\"");
    assertStillServing(9);
  }

  @Test
  void aSingleObjectByPositionReadsAsNamedParams() throws IOException {
    initialize();
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/call\",\"params\":[{\"name\":\"project_list\"}]}");
    assertThat(response(2).has("result")).isTrue();
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"params\":[{\"name\":\"project_list\"}],\"method\":\"roundhouse/call\"}");
    assertThat(response(3).has("result")).isTrue();
  }

  @Test
  void everyMalformedShapeGetsInvalidParamsNamingTheField() throws IOException {
    initialize();
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/task\",\"params\":\"seven\"}");
    invalidParams(2, "roundhouse/task: params must be an object", "\"seven\"");
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"roundhouse/task\",\"params\":7}");
    invalidParams(3, "roundhouse/task: params must be an object", "7");
    send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"roundhouse/task\",\"params\":{}}");
    invalidParams(4, "roundhouse/task: params.task is required");
    send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"roundhouse/task\",\"params\":{\"task\":\"seven\"}}");
    invalidParams(5, "roundhouse/task: params.task must be a whole number", "\"seven\"");
    send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"roundhouse/call\",\"params\":{\"name\":\"task_list\",\"arguments\":[]}}");
    invalidParams(6, "roundhouse/call: params.arguments must be an object");
    // the standard methods' typed params too
    send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{\"capabilities\":\"all\"}}");
    invalidParams(7, "initialize:", "params.capabilities");
    send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"initialize\",\"params\":[1,2]}");
    invalidParams(8, "initialize:", "params");
    assertStillServing(9);
  }

  @Test
  void aLongMalformedMessageIsReadToItsEnd() throws IOException {
    initialize();
    String padding = "x".repeat(50_000);
    send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/task\",\"params\":[1,2,\"" + padding + "\"]}");
    invalidParams(2, "roundhouse/task", "an array of 3");
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{\"capabilities\":{},\"processId\":\"" + padding + "\"}}");
    invalidParams(3, "initialize:", "params.processId");
    assertStillServing(4);
  }

  @Test
  void malformedNotificationsAreLoggedAndAnswerNothing() throws IOException {
    Logger endpointLog = Logger.getLogger(RemoteEndpoint.class.getName());
    List<String> logged = new CopyOnWriteArrayList<>();
    Handler recorder =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    endpointLog.addHandler(recorder);
    try {
      initialize();
      send("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":\"file.txt\"}");
      send("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":[1,2]}");
      send("{\"jsonrpc\":\"2.0\",\"method\":\"window/workDoneProgress/cancel\",\"params\":{\"token\":{}}}");
      send("{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":[]}");
      send("{\"jsonrpc\":\"2.0\",\"method\":\"roundhouse/task\",\"params\":[{\"task\":1},null]}");
      assertStillServing(2);
      assertThat(logged).anySatisfy(line -> assertThat(line).contains("textDocument/didOpen: params"));
      assertThat(logged).anySatisfy(line -> assertThat(line).contains("window/workDoneProgress/cancel: params.token"));
      assertThat(everything).as("every message the bridge sent").noneMatch(message -> message.has("error"));
    } finally {
      endpointLog.removeHandler(recorder);
    }
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
    send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"roundhouse/task\",\"params\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}");
    assertThat(response(10).has("error")).as("a params nested 100,000 deep is refused").isTrue();
    assertStillServing(9);
    assertThat(bridge.exit).isNotDone();
  }

  /**
   * Each header block without a usable Content-Length, followed by a body that is glued onto the next block's
   * first line (as a client that wrote one bad frame sends it): the bridge skips to the next Content-Length
   * header and answers the request there, every time.
   */
  @ParameterizedTest
  @ValueSource(strings = {
    "Foo: bar\r\n\r\n",
    "Content-Length: abc\r\n\r\n",
    "Content-Length: -5\r\n\r\n",
    "Content-Length: 9223372036854775808\r\n\r\n",
    "Content-Length: 2147483648\r\n\r\n",
    "Content-Length: 12abc\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
    "Content-Length: 5\r\nContent-Length: 7\r\n\r\n",
    "Content-Type: application/vscode-jsonrpc; charset=no-such-charset\r\nContent-Length: 2\r\n\r\n",
  })
  void afterABadHeaderBlockTheNextRequestIsAnswered(String badBlock) throws IOException {
    initialize();
    String body = "{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"roundhouse/operations\",\"params\":{}}";
    for (int round = 0; round < 3; round++) {
      sendBytes(badBlock + body);
      assertStillServing(10 + round);
      sendBytes(badBlock); // a bad block with no body at all
      assertStillServing(20 + round);
    }
  }

  @Test
  void everyBadBlockInOneWriteIsSkippedAndEachGoodRequestAnswered() throws IOException {
    initialize();
    String body = "{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"roundhouse/operations\"}";
    StringBuilder input = new StringBuilder();
    String[] bad = {"Foo: bar\r\n\r\n" + body, "Content-Length: abc\r\n\r\n" + body, "Content-Length: -5\r\n\r\n" + body,
      "garbage\n{\n  \"pretty\": true\n}\n", "\r\n\r\n", "x".repeat(20_000) + "\r\n"};
    for (int i = 0; i < bad.length; i++) {
      String good = "{\"jsonrpc\":\"2.0\",\"id\":" + (100 + i) + ",\"method\":\"roundhouse/call\",\"params\":{\"name\":\"project_list\"}}";
      input.append(bad[i]).append("Content-Length: ").append(good.length()).append("\r\n\r\n").append(good);
    }
    sendBytes(input.toString());
    // hub calls are answered in any order
    Map<Integer, JsonObject> answers = responses(IntStream.range(100, 100 + bad.length).boxed().collect(Collectors.toSet()));
    answers.forEach((id, answer) -> assertThat(answer.has("result")).as("the answer to request " + id + " after bad input " + (id - 100)).isTrue());
    assertThat(everything).as("nothing answers the skipped bodies").noneMatch(message -> message.has("id") && message.get("id").getAsInt() == 50);
  }

  @Test
  void headerNamesAndLineEndsAreReadLeniently() throws IOException {
    initialize();
    String good = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/operations\"}";
    sendBytes("content-length: " + good.length() + "\n\n" + good);
    assertThat(response(2).has("result")).isTrue();
    good = good.replace("\"id\":2", "\"id\":3");
    sendBytes("\r\nCONTENT-LENGTH:" + good.length() + "\r\nX-Other: 1\r\n\r\n" + good);
    assertThat(response(3).has("result")).isTrue();
  }

  /**
   * A request announced and sent at 200 MB is refused with -32600 naming the cap, the rest of it read and thrown
   * away as it comes, and the next request answered. The 200 MB are made as they are sent, never held.
   */
  @Test
  void aMessagePastTheCapIsRefusedAndSkipped() throws IOException {
    initialize();
    PaddedMessage huge = PaddedMessage.request(2, "roundhouse/call", 200L << 20);
    sendBytes("Content-Length: " + huge.length() + "\r\n\r\n");
    huge.transferTo(bridge.rawOut);
    JsonObject error = response(2).getAsJsonObject("error");
    assertThat(error.get("code").getAsInt()).isEqualTo(-32600);
    assertThat(error.get("message").getAsString()).isEqualTo("the message is 209715200 bytes long; roundhouse lsp accepts at most 16777216 bytes (16 MiB) per message");
    assertStillServing(3);
  }

  @Test
  void aNotificationPastTheCapIsSkippedUnanswered() throws IOException {
    initialize();
    String head = "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"text\":\"";
    PaddedMessage huge = new PaddedMessage(head, (17L << 20), "\"}}");
    sendBytes("Content-Length: " + huge.length() + "\r\n\r\n");
    huge.transferTo(bridge.rawOut);
    assertStillServing(2);
    assertThat(everything).as("every message the bridge sent").noneMatch(message -> message.has("error"));
  }

  @Test
  void exitWithoutShutdownEndsTheBridgeWithStatusOne() throws Exception {
    initialize();
    send("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    assertThat(bridge.exit.get(10, TimeUnit.SECONDS)).isEqualTo(1);
  }
}
