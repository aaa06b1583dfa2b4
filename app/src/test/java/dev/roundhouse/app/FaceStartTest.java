package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stdio faces' start without picocli ({@link FaceStart}): the plain command lines an editor uses never load
 * picocli, and every other form still gets picocli's help and usage errors. Real processes.
 */
@ExtendWith(NoLeakedProcesses.class)
class FaceStartTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"face-start\",\"version\":\"1\"}}}";

  @TempDir Path home;
  @TempDir Path logs;

  @Test
  void mcpWithNoStartAnswersWithoutLoadingPicocli() throws Exception {
    try (RoundhouseProcess hub = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      hub.awaitErrLine(line -> McpStdioTest.listening(line).matches(), TIMEOUT);
      Path classes = logs.resolve("classes.txt");
      Process mcp = RoundhouseProcess.builder(home, List.of("-Xlog:class+load=info:file=" + classes), "mcp", "--no-start")
          .redirectError(logs.resolve("err.txt").toFile()).start();
      try (OutputStream stdin = mcp.getOutputStream();
          BufferedReader stdout = new BufferedReader(new InputStreamReader(mcp.getInputStream(), StandardCharsets.UTF_8))) {
        stdin.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        String answer = stdout.readLine();
        assertThat(answer).as("the answer to initialize").isNotNull();
        assertThat(Json.read(answer, JsonNode.class).path("result").path("serverInfo").path("name").asText()).isEqualTo("roundhouse");
        stdin.close();
        assertThat(stdout.readLine()).as("nothing more").isNull();
      }
      assertThat(mcp.waitFor(TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(mcp.exitValue()).as(Files.readString(logs.resolve("err.txt"))).isZero();
      String loaded = Files.readString(classes);
      assertThat(loaded).contains("dev.roundhouse.app.FaceStart").doesNotContain(" picocli.");
      hub.terminate();
      assertThat(hub.awaitExit(TIMEOUT)).isZero();
    }
  }

  @Test
  void helpAndUnknownOptionsOfAFaceStillGoThroughPicocli() {
    CliResult help = RoundhouseProcess.run(home, TIMEOUT, "lsp", "--help");
    assertThat(help.exit()).as(help.err()).isZero();
    assertThat(help.out()).contains("Usage: roundhouse lsp").contains("--no-start");
    CliResult unknown = RoundhouseProcess.run(home, TIMEOUT, "acp", "--no-strat");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).contains("Unknown option: '--no-strat'");
    CliResult tooMany = RoundhouseProcess.run(home, TIMEOUT, "mcp", "--no-start", "extra");
    assertThat(tooMany.exit()).isEqualTo(2);
    assertThat(tooMany.err()).contains("extra");
  }

  @Test
  void aFaceWithNoStartAndNoHubStillExits3WithTheCliSentence() {
    for (String face : List.of("mcp", "lsp", "acp")) {
      CliResult run = RoundhouseProcess.run(home, TIMEOUT, face, "--no-start");
      assertThat(run.exit()).as(face + ": " + run.err()).isEqualTo(3);
      assertThat(run.err()).as(face).startsWith("roundhouse: no hub is running for ");
      assertThat(run.out()).as(face).isEmpty();
    }
  }
}
