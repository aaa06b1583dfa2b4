package dev.roundhouse.hubclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The hub connection against stand-in hubs on real sockets: when a request is sent again, and what a failure says. */
class HubHttpTest {
  private final List<HttpServer> servers = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(server -> server.stop(0));
  }

  /** A stand-in hub that records each request's path and answers it with {@code handler}. */
  private String hub(List<String> requests, HttpHandler handler) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      requests.add(exchange.getRequestURI().getPath());
      handler.handle(exchange);
    });
    server.start();
    servers.add(server);
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  /** A locator answering the given addresses in turn, the last one from then on. */
  private static Supplier<HubAddress> addresses(String... urls) {
    Deque<String> left = new ArrayDeque<>(List.of(urls));
    return () -> new HubAddress(left.size() > 1 ? left.poll() : left.peek(), "token");
  }

  private static String closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + socket.getLocalPort();
    }
  }

  @Test
  void aRefusedCallIsSentToTheHubsNewAddress() throws IOException {
    List<String> requests = new CopyOnWriteArrayList<>();
    String moved = hub(requests, exchange -> answer(exchange, 200, "{\"projects\":[]}"));
    try (HubHttp http = new HubHttp(addresses(closedPort(), moved), "test", Duration.ofSeconds(10))) {
      assertThat(http.callTree("project_list", null).path("projects").isArray()).isTrue();
    }
    assertThat(requests).containsExactly("/api/ops/project_list");
  }

  @Test
  void aRefusedCallIsNotSentAgainToTheSameAddress() throws IOException {
    String gone = closedPort();
    try (HubHttp http = new HubHttp(addresses(gone), "test", Duration.ofSeconds(10))) {
      assertThatThrownBy(() -> http.call("project_list", "{}"))
          .isInstanceOfSatisfying(HubUnavailableException.class, e -> assertThat(e.reason()).isEqualTo(HubUnavailableException.Reason.REFUSED))
          .hasMessage("no hub answers at " + gone + " (connection refused); start one with roundhouse serve");
    }
  }

  @Test
  void aCallWhoseConnectionBreaksIsNeverSentTwice() throws IOException {
    List<String> requests = new CopyOnWriteArrayList<>();
    String breaks = hub(requests, HttpExchange::close); // reads the request, answers nothing
    String other = hub(requests, exchange -> answer(exchange, 200, "{}"));
    try (HubHttp http = new HubHttp(addresses(breaks, other), "test", Duration.ofSeconds(10))) {
      assertThatThrownBy(() -> http.call("task_create", "{\"title\":\"once\"}"))
          .isInstanceOfSatisfying(HubUnavailableException.class, e -> assertThat(e.reason()).isEqualTo(HubUnavailableException.Reason.LOST))
          .hasMessageStartingWith("lost the connection to the hub at " + breaks + " during task_create");
    }
    assertThat(requests).as("the operation may have been done: it is not sent again").containsExactly("/api/ops/task_create");
  }

  @Test
  void anAnswerThatIsNotTheHubsErrorIsDescribedWithItsStatus() throws IOException {
    String proxy = hub(new CopyOnWriteArrayList<>(), exchange -> answer(exchange, 502, "Bad Gateway"));
    try (HubHttp http = new HubHttp(addresses(proxy), "test", Duration.ofSeconds(10))) {
      assertThatThrownBy(() -> http.call("project_list", "{}"))
          .isInstanceOfSatisfying(HubErrorException.class, e -> assertThat(e.status()).isEqualTo(502))
          .hasMessage("the hub at " + proxy + " answered project_list with HTTP 502: Bad Gateway");
      assertThatThrownBy(() -> http.openEvents(0, false, null))
          .hasMessage("the hub at " + proxy + " answered the event stream with HTTP 502: Bad Gateway");
    }
  }

  @Test
  void anOutputThatIsNotJsonIsABadResponse() throws IOException {
    String odd = hub(new CopyOnWriteArrayList<>(), exchange -> answer(exchange, 200, "<html>"));
    try (HubHttp http = new HubHttp(addresses(odd), "test", Duration.ofSeconds(10))) {
      assertThatThrownBy(() -> http.callTree("project_list", null))
          .isInstanceOfSatisfying(HubErrorException.class, e -> assertThat(e.code()).isEqualTo("bad_response"))
          .hasMessageStartingWith("the hub at " + odd + " answered project_list with something that is not JSON");
    }
  }
}
