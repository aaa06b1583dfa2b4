package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every stdio face, fed its requests and then the end of its input at once (as {@code printf ... |
 * roundhouse acp} does), answers each request it read before it exits. The face is a real process attached
 * to a real hub; each face is run {@link #RUNS} times, since an answer lost to the exit is a race.
 */
class StdioEndOfInputTest {
  private static final int RUNS = 12;
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern LSP_HEADER = Pattern.compile("Content-Length: \\d+\r?\n\r?\n");

  /** A face and exactly the bytes a client pipes into it: one or more requests, then nothing. */
  enum Face {
    ACP("acp", 1, line("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1,\"clientCapabilities\":{}}}")),
    // initialize is answered on LSP4J's reader thread; roundhouse/operations is a hub call on a thread of its own.
    LSP("lsp", 2,
        framed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,\"rootUri\":null,\"capabilities\":{}}}")
            + framed("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/operations\",\"params\":{}}")),
    MCP("mcp", 1, line("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"eof-test\",\"version\":\"1\"}}}"));

    final String command;
    final int requests;
    final byte[] input;

    Face(String command, int requests, String input) {
      this.command = command;
      this.requests = requests;
      this.input = input.getBytes(StandardCharsets.UTF_8);
    }

    private static String line(String json) {
      return json + "\n";
    }

    private static String framed(String json) {
      return "Content-Length: " + json.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + json;
    }
  }

  @TempDir static Path home;
  private static RoundhouseProcess hub;

  @BeforeAll
  static void startHub() {
    hub = RoundhouseProcess.start(home, "serve", "--port", "0");
    hub.awaitErrLine(line -> McpStdioTest.listening(line).matches(), TIMEOUT);
  }

  @AfterAll
  static void stopHub() {
    hub.terminate();
    assertThat(hub.awaitExit(TIMEOUT)).isZero();
  }

  @ParameterizedTest
  @EnumSource(Face.class)
  void answersEveryRequestReadBeforeItsInputEnded(Face face) {
    List<String> unanswered = new ArrayList<>();
    for (int run = 1; run <= RUNS; run++) {
      try (RoundhouseProcess process = RoundhouseProcess.start(home, face.input, face.command, "--no-start")) {
        process.awaitExit(TIMEOUT); // awaits the end of its stdout too
        List<String> ids = answeredIds(process.out());
        if (ids.size() != face.requests) {
          unanswered.add("run " + run + ": answers to " + ids + "; stdout " + process.out() + "; stderr " + process.err());
        }
      }
    }
    assertThat(unanswered).as("runs of %s (of %d) missing an answer", face.command, RUNS).isEmpty();
  }

  /** The ids of the responses on a face's stdout: JSON values one after another, LSP's headers dropped. */
  private static List<String> answeredIds(String stdout) {
    List<String> ids = new ArrayList<>();
    try (MappingIterator<JsonNode> messages = Json.mapper().readerFor(JsonNode.class).readValues(LSP_HEADER.matcher(stdout).replaceAll(""))) {
      while (messages.hasNext()) {
        JsonNode message = messages.next();
        if (message.has("id") && (message.has("result") || message.has("error"))) {
          ids.add(message.get("id").asText());
        }
      }
    } catch (IOException e) {
      throw new AssertionError("stdout is not JSON-RPC: " + stdout, e);
    }
    return ids;
  }
}
