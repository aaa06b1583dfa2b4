package dev.roundhouse.lspbridge.lsp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The WebSocket session's two streams: frames to the bridge's Content-Length input, its output back to frames. */
class SocketStreamsTest {

  @Test
  void framesAreReadAsContentLengthMessagesThenTheEnd() throws IOException {
    SocketInput input = new SocketInput(() -> {}, () -> {});
    input.offer("{\"id\":1}");
    input.offer("{\"é\":2}");
    input.end();
    input.offer("{\"late\":true}");
    String read = new String(input.readAllBytes(), StandardCharsets.UTF_8); // the length in bytes: é is two
    assertThat(read).isEqualTo("Content-Length: 8\r\n\r\n{\"id\":1}Content-Length: 8\r\n\r\n{\"é\":2}");
    assertThat(input.read()).isEqualTo(-1);
  }

  @Test
  void readsPauseAboveTheHighWaterMarkAndResumeOnceReadBelowTheLowOne() throws IOException {
    AtomicInteger pauses = new AtomicInteger();
    AtomicInteger resumes = new AtomicInteger();
    SocketInput input = new SocketInput(pauses::incrementAndGet, resumes::incrementAndGet);
    String frame = "\"" + "x".repeat(1 << 20) + "\"";
    for (int i = 0; i < 6; i++) {
      input.offer(frame);
    }
    assertThat(pauses).as("paused once past 4 MiB").hasValue(1);
    assertThat(resumes).hasValue(0);
    byte[] buffer = new byte[1 << 16];
    long read = 0;
    while (resumes.get() == 0) {
      read += input.read(buffer, 0, buffer.length);
    }
    assertThat(read).as("resumed only once most was read").isGreaterThan(4L << 20);
    assertThat(pauses).hasValue(1);
    assertThat(resumes).hasValue(1);
  }

  @Test
  void outputWrittenInAnyPiecesIsSentAsOneMessageEach() throws IOException {
    List<String> sent = new ArrayList<>();
    SocketOutput output = new SocketOutput(sent::add);
    byte[] two = ("Content-Length: 8\r\n\r\n{\"é\":1}" + "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 8\r\n\r\n{\"id\":2}")
        .getBytes(StandardCharsets.UTF_8);
    for (byte b : two) {
      output.write(b);
    }
    assertThat(sent).containsExactly("{\"é\":1}", "{\"id\":2}");
    output.write(two, 0, two.length);
    assertThat(sent).hasSize(4);
  }
}
