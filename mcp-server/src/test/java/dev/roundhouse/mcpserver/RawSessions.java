package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * MCP sessions over raw HTTP against a hub's {@link McpServers#PATH}, with its MCP token: initialize, post a
 * message in a session, and wait for a session to expire. For tests that look at the bytes on the wire.
 * Not thread-safe beyond what {@link HttpClient} is; close it after the test.
 */
final class RawSessions implements AutoCloseable {
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private final HttpClient http = HttpClient.newHttpClient();
  private final URI endpoint;
  private final String token;

  RawSessions(String hubUrl, String token) {
    this.endpoint = URI.create(hubUrl + McpServers.PATH);
    this.token = token;
  }

  /** Starts a session for a client named {@code client}, and returns its id. */
  String initialize(String client) throws Exception {
    HttpResponse<String> init = send(request(null).POST(HttpRequest.BodyPublishers.ofString(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"" + client + "\",\"version\":\"1\"}}}")).build());
    assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
    return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  HttpResponse<String> post(String session, String body) throws Exception {
    return send(request(session).header("MCP-Protocol-Version", "2025-06-18").POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  /**
   * Posts {@code probe} in {@code session} until the hub answers 404, and returns that answer. Each probe counts
   * as activity, keeping the session for one more sweep, so probes are spaced by more than two sweeps (the hub
   * sweeps every {@code idle} and closes what was idle since its previous sweep).
   */
  HttpResponse<String> awaitExpired(String session, String probe, Duration idle) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      LockSupport.parkNanos(idle.toNanos() * 3 + idle.toNanos() / 2);
      HttpResponse<String> answer = post(session, probe);
      if (answer.statusCode() == 404) {
        return answer;
      }
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }
    throw new AssertionError("session " + session + " did not expire within " + DEADLINE);
  }

  private HttpResponse<String> send(HttpRequest request) throws Exception {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String session) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint)
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .timeout(DEADLINE);
    return session == null ? builder : builder.header("Mcp-Session-Id", session);
  }

  @Override
  public void close() {
    http.close();
  }
}
