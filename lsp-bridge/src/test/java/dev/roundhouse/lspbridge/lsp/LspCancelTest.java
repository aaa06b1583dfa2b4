package dev.roundhouse.lspbridge.lsp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.roundhouse.hub.testing.Waits;
import dev.roundhouse.hubclient.HubAddress;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCancelParams;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cancelling a request cancels its hub call: the bridge is attached to a stand-in hub (a real socket) that
 * reads each request and never answers, and records when the bridge closes the connection.
 */
class LspCancelTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  /** Accepts connections, reads what comes, never answers; records each request line and each close. */
  private static final class SilentHub implements AutoCloseable {
    final ServerSocket server;
    final List<String> requests = new CopyOnWriteArrayList<>();
    final List<String> closed = new CopyOnWriteArrayList<>();
    final List<Socket> sockets = new CopyOnWriteArrayList<>();

    SilentHub() throws IOException {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread.ofVirtual().name("silent-hub").start(() -> {
        while (!server.isClosed()) {
          try {
            Socket socket = server.accept();
            sockets.add(socket);
            Thread.ofVirtual().start(() -> serve(socket));
          } catch (IOException e) {
            return;
          }
        }
      });
    }

    private void serve(Socket socket) {
      String line = "";
      try (InputStream in = socket.getInputStream()) {
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) != -1) {
          head.append((char) b);
          if (head.indexOf("\r\n") > 0 && line.isEmpty()) {
            line = head.substring(0, head.indexOf("\r\n"));
            requests.add(line);
          }
        }
      } catch (IOException e) {
        // reset by the client: closed too
      }
      closed.add(line);
    }

    String url() {
      return "http://127.0.0.1:" + server.getLocalPort();
    }

    @Override
    public void close() throws IOException {
      server.close();
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }

  private SilentHub silent;
  private BridgeFixture bridge;
  private BridgeFixture.Client client;

  @BeforeEach
  void start() throws Exception {
    silent = new SilentHub();
    bridge = BridgeFixture.startAt(new HubAddress(silent.url(), "token"));
    client = bridge.client(new RecordingClient());
    client.initialize(true); // shows progress; the progress delay is zero in tests
  }

  @AfterEach
  void stop() throws Exception {
    try {
      client.server().exit();
      bridge.close();
    } finally {
      silent.close();
    }
  }

  private static JsonObject params(String json) {
    return JsonParser.parseString(json).getAsJsonObject();
  }

  @Test
  void cancelRequestAbortsTheHubCall() throws Exception {
    CompletableFuture<?> call = client.server().call(params("{\"name\":\"project_list\"}"));
    Waits.until("the hub call reached the hub", WAIT, () -> silent.requests.stream().anyMatch(r -> r.startsWith("POST /api/ops/project_list")));
    assertThat(silent.closed).isEmpty();

    call.cancel(true); // LSP4J's client sends $/cancelRequest

    Waits.until("the bridge closed its connection to the hub", WAIT, () -> silent.closed.stream().anyMatch(r -> r.startsWith("POST /api/ops/project_list")));
    assertThat(silent.requests).as("cancelled, not retried").filteredOn(r -> r.contains("project_list")).hasSize(1);
  }

  @Test
  void cancellingTheProgressOfACallCancelsItAndItsAnswerIsRequestCancelled() throws Exception {
    CompletableFuture<?> call = client.server().call(params("{\"name\":\"task_list\"}"));
    RecordingClient local = client.local();
    Waits.until("progress began", WAIT, () -> local.progress.stream().anyMatch(p -> p.getValue().getLeft() instanceof WorkDoneProgressBegin));
    WorkDoneProgressBegin begin = (WorkDoneProgressBegin) local.progress.getFirst().getValue().getLeft();
    assertThat(begin.getCancellable()).isTrue();
    Either<String, Integer> token = local.progress.getFirst().getToken();
    Waits.until("the hub call reached the hub", WAIT, () -> silent.requests.stream().anyMatch(r -> r.startsWith("POST /api/ops/task_list")));

    client.server().cancelProgress(new WorkDoneProgressCancelParams(token));

    assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class).satisfies(thrown -> {
      ResponseErrorException error = (ResponseErrorException) thrown.getCause();
      assertThat(error.getResponseError().getCode()).isEqualTo(-32800);
    });
    Waits.until("the bridge closed its connection to the hub", WAIT, () -> silent.closed.stream().anyMatch(r -> r.startsWith("POST /api/ops/task_list")));
    Waits.until("progress ended", WAIT, () -> local.progress.size() >= 2);
    assertThat(local.progress.getLast().getValue().getLeft().toString()).contains("cancelled");
  }
}
