package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.HomeLock;
import dev.roundhouse.hub.core.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code roundhouse mcp} as a real process: JSON-RPC on stdio relayed to the hub's /mcp. */
@ExtendWith(NoLeakedProcesses.class)
class McpStdioTest {
  private static final Pattern LISTENING = Pattern.compile("^roundhouse \\S+ listening on (http://\\S+) \\(home (.+)\\)$");
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String INITIALIZE =
      """
      {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio-test","version":"1"}}}""";
  private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

  @TempDir Path home;

  /** The command line of {@code roundhouse mcp} in this JVM's class path. */
  static List<String> mcpCommand(String... extra) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp"));
    command.addAll(List.of(extra));
    return command;
  }

  /** Runs {@code roundhouse mcp} with {@code lines} on stdin (then closed); returns stdout's lines and the exit status. */
  private record Run(int exit, List<String> out, String err) {}

  private Run mcp(Map<String, String> env, List<String> lines, String... extra) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(mcpCommand(extra));
    builder.environment().keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
    builder.environment().put("ROUNDHOUSE_HOME", home.toString());
    builder.environment().putAll(env);
    Process process = builder.start();
    StringBuffer err = new StringBuffer();
    Thread errReader = Thread.ofVirtual().start(() -> {
      try {
        err.append(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        // ended
      }
    });
    List<String> out = new ArrayList<>();
    try (OutputStream stdin = process.getOutputStream();
        BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line : lines) {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        if (line.contains("\"id\"")) {
          String answer = stdout.readLine(); // one answer per request, in order: the test sends them one by one
          assertThat(answer).as("an answer to %s; stderr: %s", line, err).isNotNull();
          out.add(answer);
        }
      }
      stdin.close();
      for (String line; (line = stdout.readLine()) != null; ) {
        out.add(line);
      }
    }
    assertThat(process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("exits when stdin closes; stderr: %s", err).isTrue();
    errReader.join(TIMEOUT);
    return new Run(process.exitValue(), out, err.toString());
  }

  @Test
  void relaysJsonRpcToTheRunningHubAndExitsWhenStdinCloses() throws Exception {
    try (RoundhouseProcess hub = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      hub.awaitErrLine(l -> LISTENING.matcher(l).matches(), TIMEOUT);
      Run run = mcp(Map.of(), List.of(
          INITIALIZE,
          INITIALIZED,
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"task_get\",\"arguments\":{\"task\":42}}}",
          "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":\"roundhouse://decisions\"}}",
          "{not json"));
      assertThat(run.exit()).as(run.err()).isZero();
      List<JsonNode> messages = run.out().stream().map(line -> Json.read(line, JsonNode.class)).toList(); // stdout is JSON-RPC only
      // Requests after initialize are relayed concurrently, so answers are matched by id; notifications (the
      // session's MCP logging) may come between them.
      Map<String, JsonNode> answers = new java.util.HashMap<>();
      messages.stream().filter(message -> message.has("id")).forEach(message -> answers.put(message.get("id").asText(), message));
      assertThat(answers).as(String.join("\n", run.out())).hasSize(5);
      assertThat(answers.get("1").path("result").path("serverInfo").path("name").asText()).isEqualTo("roundhouse");
      assertThat(answers.get("2").path("result").path("tools").size()).isGreaterThan(10);
      assertThat(answers.get("3").path("result").path("isError").asBoolean()).isTrue();
      assertThat(answers.get("3").path("result").path("content").get(0).path("text").asText()).contains("42");
      assertThat(answers.get("4").path("result").path("contents").get(0).path("uri").asText()).isEqualTo("roundhouse://decisions");
      assertThat(answers.get("null").path("error").path("code").asInt()).isEqualTo(-32700);
      hub.terminate();
      assertThat(hub.awaitExit(TIMEOUT)).isZero();
    }
  }

  @Test
  void withNoHubRunningStartsOneInTheBackground() throws Exception {
    Run run = mcp(Map.of("ROUNDHOUSE_PORT", "0"), List.of(INITIALIZE));
    Path lock = home.resolve("hub.lock");
    try {
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.err()).contains("started one in the background").contains("hub.log");
      assertThat(Json.read(run.out().getFirst(), JsonNode.class).path("result").path("serverInfo").path("name").asText()).isEqualTo("roundhouse");
      assertThat(HomeLock.isHeld(lock)).as("the hub outlives the stdio session").isTrue();
      assertThat(Files.readString(home.resolve("hub.log"))).contains("listening on");
    } finally {
      HomeLock.readHolder(lock).map(holder -> holder.path("pid").asLong()).flatMap(ProcessHandle::of).ifPresent(daemon -> {
        daemon.destroy();
        daemon.onExit().orTimeout(20, TimeUnit.SECONDS).join();
      });
    }
  }

  @Test
  void withNoStartAndNoHubExits3() throws Exception {
    Run run = mcp(Map.of(), List.of(), "--no-start");
    assertThat(run.exit()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("no hub is running");
  }

  static Matcher listening(String line) {
    return LISTENING.matcher(line);
  }
}
