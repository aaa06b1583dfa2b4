package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.HomeLock;
import dev.roundhouse.hub.core.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code roundhouse mcp} as a real process while the hub it relays to stops and comes back elsewhere: the
 * relay finds the hub again through the home's published URL and renews its session there, subscriptions
 * included; with no hub running, a client's request starts one.
 */
@ExtendWith(NoLeakedProcesses.class)
class McpStdioRestartTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path home;

  @Test
  void followsAHubRestartedOnAnotherPortAndKeepsTheSubscription() throws Exception {
    try (RoundhouseProcess first = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      int firstPort = port(first); // the hub listens before the relay starts: --no-start would exit 3 otherwise
      try (Relay relay = Relay.start(home, "--no-start")) {
        relay.initialize();
        long task = relay.createTask("Follow the hub");
        String uri = "roundhouse://tasks/" + task;
        relay.call("resources/subscribe", "{\"uri\":\"" + uri + "\"}");

        first.terminate();
        assertThat(first.awaitExit(TIMEOUT)).isZero();
        int secondPort = freePortOtherThan(firstPort);
        try (RoundhouseProcess second = RoundhouseProcess.start(home, "serve", "--port", Integer.toString(secondPort))) {
          assertThat(port(second)).isEqualTo(secondPort);
          // Edits made by another client on the new hub reach the relay's client with no request of its own:
          // its listening stream found the hub, renewed the session and replayed the subscription.
          JsonNode updated = null;
          long deadline = System.nanoTime() + TIMEOUT.toNanos();
          for (int edit = 1; updated == null && System.nanoTime() < deadline; edit++) {
            CliTestSupport.ok(CliTestSupport.context(home, home), "task", "update", Long.toString(task), "--description", "edit " + edit);
            updated = relay.poll(m -> m.path("method").asText().equals("notifications/resources/updated"), Duration.ofSeconds(2));
          }
          assertThat(updated).as("resources/updated from the hub on port %s; relay stderr:\n%s", secondPort, relay.err()).isNotNull();
          assertThat(updated.path("params").path("uri").asText()).isEqualTo(uri);

          JsonNode answer = relay.call("tools/call", "{\"name\":\"task_get\",\"arguments\":{\"task\":" + task + "}}");
          assertThat(answer.path("result").path("structuredContent").path("title").asText()).as(answer.toString()).isEqualTo("Follow the hub");
          assertThat(relay.err()).contains("the hub moved from http://127.0.0.1:" + firstPort + "/mcp to http://127.0.0.1:" + secondPort + "/mcp");

          second.terminate();
          assertThat(second.awaitExit(TIMEOUT)).isZero();
        }
        // --no-start: with no hub at all the client gets an error naming the cause, and the relay keeps serving.
        JsonNode refused = relay.call("tools/call", "{\"name\":\"task_get\",\"arguments\":{\"task\":" + task + "}}");
        assertThat(refused.path("error").path("message").asText()).as(refused.toString()).contains("no hub is running for " + home);
        assertThat(relay.closeStdinAndAwaitExit()).isZero();
      }
    }
  }

  @Test
  void requestAfterTheHubStoppedStartsOneInTheBackgroundAndIsAnswered() throws Exception {
    Path lock = home.resolve("hub.lock");
    try (RoundhouseProcess first = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      port(first); // the hub listens before the relay starts, so the relay does not start one of its own
      try (Relay relay = Relay.start(home)) {
        relay.initialize();
        long task = relay.createTask("Start a hub for me");
        first.terminate();
        assertThat(first.awaitExit(TIMEOUT)).isZero();

        JsonNode answer = relay.call("tools/call", "{\"name\":\"task_get\",\"arguments\":{\"task\":" + task + "}}");
        assertThat(answer.path("result").path("structuredContent").path("title").asText()).as(answer.toString()).isEqualTo("Start a hub for me");
        assertThat(relay.err()).contains("started one in the background");
        assertThat(HomeLock.isHeld(lock)).isTrue();
        assertThat(relay.closeStdinAndAwaitExit()).isZero();
      }
    } finally {
      HomeLock.readHolder(lock).map(holder -> holder.path("pid").asLong()).flatMap(ProcessHandle::of).ifPresent(daemon -> {
        daemon.destroy();
        daemon.onExit().orTimeout(20, TimeUnit.SECONDS).join();
      });
    }
  }

  private static int port(RoundhouseProcess hub) {
    String line = hub.awaitErrLine(l -> McpStdioTest.listening(l).matches(), TIMEOUT);
    var matcher = McpStdioTest.listening(line);
    assertThat(matcher.matches()).isTrue();
    return URI.create(matcher.group(1)).getPort();
  }

  private static int freePortOtherThan(int taken) throws IOException {
    while (true) {
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        if (socket.getLocalPort() != taken) {
          return socket.getLocalPort();
        }
      }
    }
  }

  /** {@code roundhouse mcp} as a process spoken to line by line; stdout read as it comes. */
  private static final class Relay implements AutoCloseable {
    private final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<JsonNode> stdout = new LinkedBlockingQueue<>();
    private final StringBuffer err = new StringBuffer();
    private final Thread readers;
    private int ids;

    private Relay(Process process) {
      this.process = process;
      this.stdin = process.getOutputStream();
      Thread errReader = Thread.ofVirtual().start(() -> {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = lines.readLine()) != null; ) {
            err.append(line).append('\n');
          }
        } catch (IOException e) {
          // ended
        }
      });
      this.readers = Thread.ofVirtual().start(() -> {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = lines.readLine()) != null; ) {
            stdout.add(Json.read(line, JsonNode.class)); // stdout is JSON-RPC only, or this fails the test
          }
          errReader.join();
        } catch (IOException e) {
          // ended
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }

    static Relay start(Path home, String... extra) throws IOException {
      ProcessBuilder builder = new ProcessBuilder(McpStdioTest.mcpCommand(extra));
      builder.environment().keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
      builder.environment().put("ROUNDHOUSE_HOME", home.toString());
      builder.environment().put("ROUNDHOUSE_PORT", "0"); // for a hub it starts
      return new Relay(builder.start());
    }

    void initialize() throws Exception {
      JsonNode hello = call("initialize",
          "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"restart-test\",\"version\":\"1\"}}");
      assertThat(hello.path("result").path("serverInfo").path("name").asText()).as(hello.toString()).isEqualTo("roundhouse");
      send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    long createTask(String title) throws Exception {
      Path folder = Files.createTempDirectory("restart-repo");
      JsonNode project = call("tools/call", "{\"name\":\"project_create\",\"arguments\":{\"name\":\"web\",\"path\":"
          + Json.write(folder.toString()) + "}}");
      assertThat(project.path("result").path("isError").asBoolean()).as(project.toString()).isFalse();
      JsonNode task = call("tools/call", "{\"name\":\"task_create\",\"arguments\":{\"project\":\"web\",\"title\":" + Json.write(title) + "}}");
      assertThat(task.path("result").path("isError").asBoolean()).as(task.toString()).isFalse();
      return task.path("result").path("structuredContent").path("id").asLong();
    }

    /** Sends a request and returns its answer (notifications that come first are skipped). */
    JsonNode call(String method, String params) throws Exception {
      int id = ++ids;
      send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
      JsonNode answer = poll(m -> m.path("id").asInt(-1) == id, TIMEOUT);
      assertThat(answer).as("an answer to %s %s; stderr:\n%s", method, params, err).isNotNull();
      return answer;
    }

    void send(String line) throws IOException {
      stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    }

    /** The next message matching {@code wanted}, skipping others, or null when none comes within {@code timeout}. */
    JsonNode poll(Predicate<JsonNode> wanted, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      for (long left; (left = deadline - System.nanoTime()) > 0; ) {
        JsonNode message = stdout.poll(left, TimeUnit.NANOSECONDS);
        if (message != null && wanted.test(message)) {
          return message;
        }
      }
      return null;
    }

    String err() {
      return err.toString();
    }

    int closeStdinAndAwaitExit() throws Exception {
      stdin.close();
      assertThat(process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("exits when stdin closes; stderr:\n%s", err).isTrue();
      readers.join(TIMEOUT);
      return process.exitValue();
    }

    @Override
    public void close() {
      RoundhouseProcess.kill(process);
    }
  }
}
