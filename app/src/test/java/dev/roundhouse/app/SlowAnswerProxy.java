package dev.roundhouse.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A reverse proxy on loopback in front of a hub that holds back the answer of one operation until the streams it
 * relays have carried a given event, and {@code extra} longer: the reordering a slow network may cause, made
 * certain. Everything else passes through as it comes (event streams chunk by chunk). Thread-safe: each exchange
 * on a virtual thread of its own.
 */
final class SlowAnswerProxy implements AutoCloseable {
  private static final List<String> FORWARDED = List.of("Authorization", "Content-Type", "Accept", "Last-Event-ID");

  private final String upstream;
  private final String heldPath;
  private final byte[] awaited;
  private final Duration extra;
  private final CountDownLatch seen = new CountDownLatch(1);
  private final HttpClient client = HttpClient.newHttpClient();
  private final HttpServer server;

  /**
   * @param heldOperation the operation whose answer waits ({@code /api/ops/<name>})
   * @param awaitedEvent the SSE event name ({@code event: <name>}) the answer waits for
   */
  SlowAnswerProxy(String upstream, String heldOperation, String awaitedEvent, Duration extra) throws IOException {
    this.upstream = upstream;
    this.heldPath = "/api/ops/" + heldOperation;
    this.awaited = ("event: " + awaitedEvent).getBytes(StandardCharsets.UTF_8);
    this.extra = extra;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", this::relay);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Whether a held answer was sent only after the awaited event went by (false: it was held to its limit). */
  boolean heldUntilSeen() {
    return seen.getCount() == 0;
  }

  private void relay(HttpExchange exchange) throws IOException {
    try (exchange) {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstream + exchange.getRequestURI()));
      for (String name : FORWARDED) {
        String value = exchange.getRequestHeaders().getFirst(name);
        if (value != null) {
          request.header(name, value);
        }
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      request.method(exchange.getRequestMethod(),
          body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
      HttpResponse<InputStream> answer = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      if (exchange.getRequestURI().getPath().equals(heldPath)) {
        byte[] held = answer.body().readAllBytes(); // the hub answered; the client does not hear it yet
        seen.await(30, TimeUnit.SECONDS);
        Thread.sleep(extra); // the slow network's share, after the event went by: not a wait for an event
        answer.headers().firstValue("Content-Type").ifPresent(type -> exchange.getResponseHeaders().set("Content-Type", type));
        exchange.sendResponseHeaders(answer.statusCode(), held.length == 0 ? -1 : held.length);
        exchange.getResponseBody().write(held);
        return;
      }
      answer.headers().firstValue("Content-Type").ifPresent(type -> exchange.getResponseHeaders().set("Content-Type", type));
      exchange.sendResponseHeaders(answer.statusCode(), 0);
      try (InputStream in = answer.body(); OutputStream out = exchange.getResponseBody()) {
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) > 0; ) {
          out.write(buffer, 0, n);
          out.flush();
          if (contains(buffer, n, awaited)) {
            seen.countDown();
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away (a follower closes its stream once it has what it wanted)
    }
  }

  private static boolean contains(byte[] buffer, int length, byte[] wanted) {
    outer:
    for (int i = 0; i + wanted.length <= length; i++) {
      for (int j = 0; j < wanted.length; j++) {
        if (buffer[i + j] != wanted[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @Override
  public void close() {
    server.stop(0);
    client.shutdownNow();
  }
}
