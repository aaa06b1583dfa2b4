package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.HomeLock;
import dev.roundhouse.hub.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An editor starting {@code roundhouse lsp} with no hub running gets one started in the background. */
class LspStartsHubTest {
  @TempDir Path home;

  @Test
  void withNoHubRunningLspStartsOneAndAnswersInitialize() throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "lsp"));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
    builder.environment().put("ROUNDHOUSE_HOME", home.toString());
    builder.environment().put("ROUNDHOUSE_PORT", "0");
    Process lsp = builder.start();
    StringBuffer err = new StringBuffer();
    Thread errReader = Thread.ofVirtual().start(() -> {
      try {
        err.append(new String(lsp.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        // ended
      }
    });
    Path lock = home.resolve("hub.lock");
    try {
      OutputStream in = lsp.getOutputStream();
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,\"rootUri\":null,\"capabilities\":{}}}");
      JsonNode answer = Json.mapper().readTree(read(lsp.getInputStream()));
      assertThat(answer.path("id").asInt()).as("stderr: %s", err).isEqualTo(1);
      assertThat(answer.path("result").path("capabilities").path("experimental").has("roundhouse")).isTrue();
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
      read(lsp.getInputStream());
      send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
      in.close();
      assertThat(lsp.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(lsp.exitValue()).as("stderr: %s", err).isZero();
      errReader.join(java.time.Duration.ofSeconds(10));
      assertThat(err.toString()).contains("started one in the background").contains("hub.log");
      assertThat(HomeLock.isHeld(lock)).as("the hub outlives the editor").isTrue();
    } finally {
      lsp.destroyForcibly();
      HomeLock.readHolder(lock).map(holder -> holder.path("pid").asLong()).flatMap(ProcessHandle::of).ifPresent(daemon -> {
        daemon.destroy();
        daemon.onExit().orTimeout(20, TimeUnit.SECONDS).join();
      });
    }
  }

  private static void send(OutputStream out, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    out.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(body);
    out.flush();
  }

  /** One framed LSP message's body. */
  private static String read(InputStream in) throws IOException {
    int length = -1;
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the stream ended before a message");
      }
      if (b == '\n') {
        String header = line.toString(StandardCharsets.US_ASCII).strip();
        line.reset();
        if (header.isEmpty()) {
          break;
        }
        if (header.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(header.substring("content-length:".length()).strip());
        }
      } else {
        line.write(b);
      }
    }
    return new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
