package dev.roundhouse.hub.http;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.RoundhouseException;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.server.protocol.http.HttpOpenListener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.function.Predicate;
import org.xnio.ChannelListener;
import org.xnio.ChannelListeners;
import org.xnio.IoUtils;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.StreamConnection;
import org.xnio.Xnio;
import org.xnio.XnioWorker;
import org.xnio.channels.AcceptingChannel;

/**
 * Undertow on the configured address. Requests leave the I/O threads at once for a virtual thread each,
 * where they may block. Thread-safe.
 */
final class UndertowHubServer implements HubServer, HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(UndertowHubServer.class);

  /** Where modules' routes live: {@code /api/x/{name}}. */
  static final String EXTENSION_ROUTES = "/api/x/";

  private final Hub hub;
  private final Guard guard;
  private final ApiRoutes routes;
  private final EventStreamHandler events;
  private final List<HttpMount> mounts;
  /** Undertow's own default for a heap of 128 MB or more: 16 KB less room for a TLS record's overhead. */
  private static final int BUFFER_SIZE = 16 * 1024 - 20;
  /** At most 16 MB of direct buffers kept for reuse. */
  private static final int POOLED_BUFFERS = 1024;

  private final ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor();
  private XnioWorker worker;
  private HttpOpenListener openListener;
  private AcceptingChannel<StreamConnection> listener;
  private int port;
  private String url;

  private UndertowHubServer(Hub hub, Duration keepAlive, List<? extends HttpMount> mounts) {
    this.hub = hub;
    this.mounts = List.copyOf(mounts);
    this.guard = new Guard(hub.token(), hub.config());
    this.events = new EventStreamHandler(hub, keepAlive);
    this.routes = new ApiRoutes(hub, events);
  }

  static UndertowHubServer start(Hub hub, Duration keepAlive, List<? extends HttpMount> mounts) {
    HubConfig config = hub.config();
    try {
      if (!checkBindAllowed(config)) {
        log.warn(
            "binding {}, reachable from other machines: every route but /api/health needs the token,"
                + " and requests travel unencrypted unless a TLS proxy fronts the hub",
            config.bind());
      }
    } catch (RuntimeException e) {
      closeAll(mounts);
      throw e;
    }
    UndertowHubServer server = new UndertowHubServer(hub, keepAlive, mounts);
    InetSocketAddress address;
    try {
      address = server.listen(config);
    } catch (IOException | RuntimeException e) {
      server.stopListening();
      server.requests.shutdownNow();
      closeAll(server.mounts);
      throw new RoundhouseException(
          "port_unavailable",
          "cannot listen on " + config.bind() + ":" + config.port() + ": " + rootMessage(e)
              + " (is another program using the port? set --port or ROUNDHOUSE_PORT)", e);
    }
    server.port = address.getPort();
    String host = address.getAddress().getHostAddress();
    server.url = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.port;
    hub.publishUrl(server.url);
    log.info("listening on {}", server.url);
    return server;
  }

  /**
   * Undertow's HTTP listener on XNIO, as {@code Undertow.start()} builds it, but with each accepted connection
   * wrapped by {@link ParseFailureAnswers} first (Undertow's builder offers no hook for that).
   */
  private InetSocketAddress listen(HubConfig config) throws IOException {
    worker = Xnio.getInstance(Undertow.class.getClassLoader()).createWorker(OptionMap.builder()
        .set(Options.WORKER_IO_THREADS, 2)
        .set(Options.WORKER_TASK_CORE_THREADS, 2)
        .set(Options.WORKER_TASK_MAX_THREADS, 2)
        .set(Options.TCP_NODELAY, true)
        .set(Options.CORK, true)
        .getMap());
    OptionMap socketOptions = OptionMap.builder()
        .set(Options.WORKER_IO_THREADS, 2)
        .set(Options.TCP_NODELAY, true)
        .set(Options.REUSE_ADDRESSES, true)
        .set(Options.BALANCING_TOKENS, 1)
        .set(Options.BALANCING_CONNECTIONS, 2)
        .set(Options.BACKLOG, 1000)
        .set(Options.WRITE_TIMEOUT, 30_000)
        .getMap();
    OptionMap undertowOptions = OptionMap.builder()
        .set(UndertowOptions.NO_REQUEST_TIMEOUT, 60_000)
        .set(UndertowOptions.BUFFER_PIPELINED_DATA, true)
        .set(UndertowOptions.ALWAYS_SET_KEEP_ALIVE, false)
        .getMap();
    // Requests run on virtual threads, one per request, so Undertow's per-thread buffer caches (its default)
    // never hit: every request allocated fresh direct buffers and registered a cache for a thread about to
    // end (measured with roundhouse bench mcp, JFR). One shared pool instead: SharedBufferPool says why not
    // Undertow's DefaultByteBufferPool with its caches off.
    openListener = new HttpOpenListener(new SharedBufferPool(true, BUFFER_SIZE, POOLED_BUFFERS), undertowOptions);
    openListener.setRootHandler(this);
    Predicate<String> jsonRpc = path -> mounts.stream().anyMatch(mount -> mount.serves(path));
    ChannelListener<StreamConnection> wrapped = connection -> {
      ParseFailureAnswers.wrap(connection, jsonRpc);
      openListener.handleEvent(connection);
    };
    listener = worker.createStreamConnectionServer(
        new InetSocketAddress(InetAddress.getByName(config.bind()), config.port()),
        ChannelListeners.openListenerAdapter(wrapped), socketOptions);
    listener.resumeAccepts();
    return listener.getLocalAddress(InetSocketAddress.class);
  }

  private void stopListening() {
    if (listener != null) {
      IoUtils.safeClose(listener);
    }
    if (openListener != null) {
      openListener.closeConnections();
    }
    if (worker != null) {
      worker.shutdown();
      try {
        if (!worker.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS)) {
          worker.shutdownNow();
        }
      } catch (InterruptedException e) {
        worker.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Refuses a non-loopback address without {@code allowRemote}; returns whether the address is loopback. */
  static boolean checkBindAllowed(HubConfig config) {
    boolean loopback;
    try {
      loopback = InetAddress.getByName(config.bind()).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new RoundhouseException.InvalidInput("cannot resolve the bind address '" + config.bind() + "'");
    }
    if (!loopback && !config.allowRemote()) {
      throw new RoundhouseException.InvalidInput(
          "refusing to bind "
              + config.bind()
              + ": it is reachable from other machines. Pass --allow-remote to do so on purpose;"
              + " every request then still needs the token");
    }
    return loopback;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    if (exchange.isInIoThread()) {
      exchange.addExchangeCompleteListener(EndOnIoThread.INSTANCE);
      exchange.dispatch(requests, this);
      return;
    }
    String path = exchange.getRequestPath();
    for (HttpMount mount : mounts) {
      if (mount.serves(path)) {
        serveMount(mount, exchange);
        return;
      }
    }
    try {
      if (path.equals("/metrics")) {
        serveMetrics(exchange);
        return;
      }
      boolean health = path.equals("/api/health");
      guard.check(exchange, !health && !linkRoute(path));
      if (health) {
        exchange.putAttachment(ApiRoutes.TOKEN_PRESENTED, guard.presentsToken(exchange));
      }
      if (path.equals("/api/events")) {
        events.handle(exchange, null, -1);
      } else if (path.startsWith(EXTENSION_ROUTES)) {
        serveExtension(exchange, path);
      } else if (!routes.handle(exchange)) {
        HttpErrors.send(exchange, 404, "unknown_route", "no route " + exchange.getRequestMethod() + " " + path + "; see docs/http.md");
      }
    } catch (Throwable failure) {
      HttpErrors.send(exchange, failure);
    }
  }

  /** {@code GET /metrics}: the hub's numbers in Prometheus's text format, for the token or the metrics token. */
  private void serveMetrics(HttpServerExchange exchange) {
    guard.checkMetrics(exchange);
    if (!exchange.getRequestMethod().equalToString("GET")) {
      exchange.getResponseHeaders().put(Headers.ALLOW, "GET");
      HttpErrors.send(exchange, 405, "method_not_allowed", "GET /metrics is the only method of /metrics");
      return;
    }
    String body = hub.metrics().scrape();
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
    exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    exchange.getResponseSender().send(body, StandardCharsets.UTF_8);
  }

  /** True for a module's route that checks a credential of its own (a capability link) instead of the token. */
  private boolean linkRoute(String path) {
    if (!path.startsWith(EXTENSION_ROUTES)) {
      return false;
    }
    String rest = path.substring(EXTENSION_ROUTES.length());
    int slash = rest.indexOf('/');
    return !hub.extensionRouteNeedsToken(slash < 0 ? rest : rest.substring(0, slash));
  }

  /** A module's route, {@code /api/x/{name}/…}: the guard has passed; the module's handler answers. */
  private void serveExtension(HttpServerExchange exchange, String path) throws Exception {
    String rest = path.substring(EXTENSION_ROUTES.length());
    int slash = rest.indexOf('/');
    String name = slash < 0 ? rest : rest.substring(0, slash);
    Optional<HttpHandler> handler = hub.extensionRoute(name);
    if (handler.isEmpty()) {
      HttpErrors.send(exchange, 404, "unknown_route", "no module serves " + EXTENSION_ROUTES + name + "; see docs/http.md");
      return;
    }
    handler.get().handleRequest(exchange);
  }

  private void serveMount(HttpMount mount, HttpServerExchange exchange) {
    try {
      if (mount.guarded()) {
        guard.check(exchange, true);
      }
      mount.handler().handleRequest(exchange);
    } catch (Throwable failure) {
      HttpErrors.send(exchange, failure);
    }
  }

  private static void closeAll(List<? extends HttpMount> mounts) {
    for (HttpMount mount : mounts) {
      try {
        mount.close();
      } catch (RuntimeException e) {
        log.warn("closing the mount at {} failed", mount.prefix(), e);
      }
    }
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String url() {
    return url;
  }

  @Override
  public void close() {
    stopListening();
    requests.shutdownNow();
    closeAll(mounts);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage();
  }
}
