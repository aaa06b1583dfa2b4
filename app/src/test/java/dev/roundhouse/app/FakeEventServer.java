package dev.roundhouse.app;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted {@code /api/events} endpoint: the n-th connection gets the n-th script as its whole response
 * body, which lets a test produce what a real hub produces only under load or from an older version (a
 * {@code closed} event, a stream without {@code end}). Records each request's query and
 * {@code Last-Event-ID}. Thread-safe.
 */
final class FakeEventServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final AtomicInteger connections = new AtomicInteger();
  final List<String> lastEventIds = new CopyOnWriteArrayList<>();
  final List<String> queries = new CopyOnWriteArrayList<>();

  FakeEventServer(List<String> scripts) {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext(
        "/api/events",
        exchange -> {
          int n = connections.getAndIncrement();
          String lastEventId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
          lastEventIds.add(lastEventId == null ? "none" : lastEventId);
          queries.add(exchange.getRequestURI().getQuery());
          exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(scripts.get(Math.min(n, scripts.size() - 1)).getBytes(StandardCharsets.UTF_8));
          }
        });
    server.start();
  }

  /** An event as the hub writes it. */
  static String event(long seq, String type) {
    return "id: " + seq + "\nevent: " + type + "\ndata: {\"seq\":" + seq + ",\"type\":\"" + type + "\"}\n\n";
  }

  /** Where this server listens, as the CLI finds a hub. */
  HubEndpoint endpoint(Path home) {
    return new HubEndpoint("http://127.0.0.1:" + server.getAddress().getPort(), "token", home, true);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    executor.close();
  }
}
