package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code roundhouse lsp} and {@code roundhouse acp} processes, attached to a real hub and fed exactly
 * the bytes a broken or hostile client sends, their stdin held open: {@code exit} ends the LSP process with
 * the status the specification asks for, a bad header block costs only itself, and a 200 MB message is
 * refused in a JVM whose heap is capped at {@link #HEAP} (a face that held it would fail with
 * OutOfMemoryError and answer nothing more), with its peak resident memory checked on Linux.
 */
class StdioWireProcessTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String HEAP = "-Xmx96m";
  /** The peak resident memory a face may reach (the probe saw 620 MB for a 200 MB line before the cap). */
  private static final long MAX_PEAK_RSS_KB = 300 * 1024;
  private static final long HUGE = 200L << 20;

  @TempDir static Path home;
  @TempDir Path scratch;
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

  /** A face's process, its stdin open, its answers read as they come on a virtual thread. */
  private final class Face implements AutoCloseable {
    final Process process;
    final OutputStream in;
    final Path err;
    final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
    final Map<String, JsonNode> answers = new HashMap<>();

    Face(String command, List<String> jvmOptions) throws IOException {
      err = Files.createTempFile(scratch, command, ".err");
      process = RoundhouseProcess.builder(home, jvmOptions, command, "--no-start").redirectError(err.toFile()).start();
      in = process.getOutputStream();
      boolean lsp = command.equals("lsp");
      Thread.ofVirtual().start(() -> {
        try (InputStream out = process.getInputStream()) {
          if (lsp) {
            for (String body; (body = framed(out)) != null; ) {
              messages.add(Json.mapper().readTree(body));
            }
          } else {
            BufferedReader lines = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8));
            for (String line; (line = lines.readLine()) != null; ) {
              messages.add(Json.mapper().readTree(line));
            }
          }
        } catch (IOException e) {
          // the process ended
        }
      });
    }

    void sendFramed(String json) throws IOException {
      byte[] body = json.getBytes(StandardCharsets.UTF_8);
      in.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      in.write(body);
      in.flush();
    }

    void sendRaw(String bytes) throws IOException {
      in.write(bytes.getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    /** The answer to request {@code id}, whatever came before it, within {@link #TIMEOUT}. */
    JsonNode answer(Object id) throws IOException {
      String key = String.valueOf(id);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (!answers.containsKey(key)) {
        JsonNode message;
        try {
          message = messages.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError(e);
        }
        if (message == null) {
          throw new AssertionError("no answer to request " + id + " within " + TIMEOUT + " (alive: " + process.isAlive() + "); stderr:\n" + Files.readString(err));
        }
        if (message.has("id") && !message.has("method")) {
          answers.put(message.get("id").asText(), message);
        }
      }
      return answers.get(key);
    }

    int awaitExit() throws IOException, InterruptedException {
      assertThat(process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).as("the process ends, its stdin still open; stderr:\n%s", Files.readString(err)).isTrue();
      return process.exitValue();
    }

    /** The process's peak resident memory in KiB (Linux's VmHWM), or -1 where it cannot be read. */
    long peakRssKb() throws IOException {
      Path status = Path.of("/proc", String.valueOf(process.pid()), "status");
      if (!Files.isReadable(status)) {
        return -1;
      }
      return Files.readAllLines(status).stream().filter(line -> line.startsWith("VmHWM:"))
          .map(line -> Long.parseLong(line.replaceAll("\\D", ""))).findFirst().orElse(-1L);
    }

    String stderr() throws IOException {
      return Files.readString(err);
    }

    @Override
    public void close() {
      RoundhouseProcess.kill(process);
    }
  }

  /** One framed LSP message's body, or null at the end of the stream. */
  private static String framed(InputStream in) throws IOException {
    int length = -1;
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b < 0) {
        return null;
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
    return new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  private static final String LSP_INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,\"rootUri\":null,\"capabilities\":{}}}";

  private static String lspRequest(int id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"roundhouse/operations\",\"params\":{}}";
  }

  @Test
  void lspExitWithoutShutdownEndsTheProcessWithStatusOne() throws Exception {
    try (Face lsp = new Face("lsp", List.of())) {
      lsp.sendFramed(LSP_INITIALIZE);
      assertThat(lsp.answer(1).has("result")).isTrue();
      lsp.sendFramed("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
      assertThat(lsp.awaitExit()).isEqualTo(1);
    }
  }

  @Test
  void lspExitAfterShutdownEndsTheProcessWithStatusZero() throws Exception {
    try (Face lsp = new Face("lsp", List.of())) {
      lsp.sendFramed(LSP_INITIALIZE);
      assertThat(lsp.answer(1).has("result")).isTrue();
      lsp.sendFramed("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
      assertThat(lsp.answer(2).has("result")).isTrue();
      lsp.sendFramed("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
      assertThat(lsp.awaitExit()).isZero();
    }
  }

  /** Each bad header block, its body glued onto the next header as a client that wrote it sends it. */
  @Test
  void lspAnswersTheRequestAfterEachBadHeaderBlock() throws Exception {
    List<String> badBlocks = List.of(
        "Foo: bar\r\n\r\n",
        "Content-Length: abc\r\n\r\n",
        "Content-Length: -5\r\n\r\n",
        "Content-Length: 9223372036854775808\r\n\r\n");
    try (Face lsp = new Face("lsp", List.of())) {
      lsp.sendFramed(LSP_INITIALIZE);
      assertThat(lsp.answer(1).has("result")).isTrue();
      for (int i = 0; i < badBlocks.size(); i++) {
        lsp.sendRaw(badBlocks.get(i) + lspRequest(900 + i));
        lsp.sendFramed(lspRequest(10 + i));
        assertThat(lsp.answer(10 + i).has("result")).as("the request after %s", badBlocks.get(i).strip()).isTrue();
      }
      lsp.sendFramed("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
      assertThat(lsp.awaitExit()).isEqualTo(1);
      assertThat(lsp.answers).as("the bad blocks' bodies are not answered").doesNotContainKeys("900", "901", "902", "903");
      assertThat(lsp.stderr())
          .contains("roundhouse lsp: skipped 83 byte(s) of input that were not a message (a header block without Content-Length (Foo))")
          .contains("(Content-Length: abc is not a length")
          .contains("(Content-Length: -5 is not a length")
          .contains("(Content-Length: 9223372036854775808 is not a length");
    }
  }

  @Test
  void lspRefusesA200MegabyteMessageAndStaysSmall() throws Exception {
    try (Face lsp = new Face("lsp", List.of(HEAP))) {
      lsp.sendFramed(LSP_INITIALIZE);
      assertThat(lsp.answer(1).has("result")).isTrue();
      String head = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roundhouse/call\",\"params\":{\"name\":\"project_list\",\"pad\":\"";
      lsp.sendRaw("Content-Length: " + HUGE + "\r\n\r\n");
      padded(head, HUGE, "\"}}").transferTo(lsp.in);
      lsp.sendFramed(lspRequest(3));
      assertThat(lsp.answer(2).path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(lsp.answer(3).has("result")).isTrue();
      long peak = lsp.peakRssKb();
      lsp.sendFramed("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
      assertThat(lsp.awaitExit()).isEqualTo(1);
      assertThat(lsp.stderr()).contains("roundhouse lsp: refused a message of 209715200 bytes (roundhouse/call request 2)");
      assertThat(peak).as("peak resident memory of roundhouse lsp, KiB").isLessThan(MAX_PEAK_RSS_KB);
      System.out.println("roundhouse lsp after a 200 MB message: peak RSS " + peak / 1024 + " MiB");
    }
  }

  @Test
  void acpRefusesA200MegabyteLineAndStaysSmall() throws Exception {
    try (Face acp = new Face("acp", List.of(HEAP))) {
      String head = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"session/prompt\",\"params\":{\"pad\":\"";
      padded(head, HUGE + 1, "\"}}\n").transferTo(acp.in); // 200 MB, then the newline
      acp.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}\n");
      JsonNode refused = acp.answer(7);
      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(refused.path("error").path("message").asText()).isEqualTo("the message is 209715200 bytes long; roundhouse acp accepts at most 16777216 bytes (16 MiB) per line");
      assertThat(acp.answer(8).path("result").path("protocolVersion").asInt()).isEqualTo(1);
      long peak = acp.peakRssKb();
      acp.in.close();
      assertThat(acp.awaitExit()).isZero();
      assertThat(acp.stderr()).contains("roundhouse acp: refused a line of 209715200 bytes (session/prompt request 7)");
      assertThat(peak).as("peak resident memory of roundhouse acp, KiB").isLessThan(MAX_PEAK_RSS_KB);
      System.out.println("roundhouse acp after a 200 MB line: peak RSS " + peak / 1024 + " MiB");
    }
  }

  /** {@code head}, {@code x} up to {@code length} bytes in all, then {@code tail}: made as it is read, never held. */
  private static InputStream padded(String head, long length, String tail) {
    byte[] first = head.getBytes(StandardCharsets.UTF_8);
    byte[] last = tail.getBytes(StandardCharsets.UTF_8);
    return new InputStream() {
      private long position;

      @Override
      public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] buffer, int offset, int count) {
        if (position == length) {
          return -1;
        }
        int n = (int) Math.min(count, length - position);
        long padEnd = length - last.length;
        for (int i = 0; i < n; i++) {
          long at = position + i;
          buffer[offset + i] = at < first.length ? first[(int) at] : at >= padEnd ? last[(int) (at - padEnd)] : (byte) 'x';
        }
        position += n;
        return n;
      }
    };
  }
}
