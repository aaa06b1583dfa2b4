package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.services.ServiceState;
import dev.roundhouse.services.hub.ServiceRecords.StoredExposure;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.ResponseCodeHandler;
import io.undertow.server.handlers.proxy.ProxyHandler;
import io.undertow.server.handlers.proxy.SimpleProxyClientProvider;
import io.undertow.util.Headers;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exposed services, as a reverse proxy on the hub's own server: Undertow's {@link ProxyHandler} to
 * {@code 127.0.0.1:<port>}, WebSocket upgrades passed through (a 101 from the service turns the connection into a
 * pipe both ways). Two routes share it:
 *
 * <ul>
 *   <li>{@code /api/x/expose/<project>/<service>/…}: any exposed service, behind the hub's token (its
 *       {@code Authorization} header is not forwarded);
 *   <li>{@code /api/x/share/<link>/…}: a shared one, by its link token alone (served with
 *       {@code ExtensionContext.serveLinks}: the hub still refuses a foreign Origin or Host).
 * </ul>
 *
 * The service sees the rest of the path ({@code /…}, with the query), {@code Host: 127.0.0.1:<port>} and the
 * {@code X-Forwarded-*} headers. A path that names no exposure, or a revoked link, is a 404; a service that is not
 * running a 503; a bare {@code …/<service>} is redirected to {@code …/<service>/} so relative links resolve.
 *
 * <p>Thread-safe: one proxy per target port in a concurrent map; each request reads the store for its exposure,
 * so an exposure ended by {@code service_unexpose} is refused from the next request on.
 */
final class ExposedRoute implements HttpHandler {
  private final HubServices services;
  private final Exposures exposures;
  private final boolean shared;
  private final String prefix;
  private final ConcurrentHashMap<Integer, ProxyHandler> proxies = new ConcurrentHashMap<>();

  ExposedRoute(HubServices services, Exposures exposures, boolean shared) {
    this.services = services;
    this.exposures = exposures;
    this.shared = shared;
    this.prefix = "/api/x/" + (shared ? Exposures.SHARED_ROUTE : Exposures.PRIVATE_ROUTE) + "/";
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    String uri = exchange.getRequestURI();
    if (exchange.isHostIncludedInRequestURI()) {
      int path = uri.indexOf('/', uri.indexOf("//") + 2);
      uri = path < 0 ? "/" : uri.substring(path);
    }
    if (!uri.startsWith(prefix)) {
      LogRoute.send(exchange, 404, "not_found", shared ? "a shared service's path is /api/x/share/<link>/…"
          : "an exposed service's path is /api/x/expose/<project>/<service>/…");
      return;
    }
    String[] parts = uri.substring(prefix.length()).split("/", shared ? 2 : 3);
    Target target;
    try {
      target = shared ? byLink(parts[0]) : byName(parts);
    } catch (RoundhouseException.NotFound e) {
      LogRoute.send(exchange, 404, "not_found", e.getMessage());
      return;
    }
    String rest = parts.length > (shared ? 1 : 2) ? "/" + parts[shared ? 1 : 2] : null;
    if (rest == null) {
      String query = exchange.getQueryString();
      exchange.getResponseHeaders().put(Headers.LOCATION, uri + "/" + (query.isEmpty() ? "" : "?" + query));
      exchange.setStatusCode(308);
      exchange.endExchange();
      return;
    }
    ServiceState state = services.of(target.project()).supervisor().state(target.exposure().service());
    if (!state.status().active()) {
      LogRoute.send(exchange, 503, "service_unavailable", "service " + target.exposure().service() + " of project "
          + target.project().name() + " is " + state.status().name().toLowerCase() + "; start it with service_start");
      return;
    }
    if (!shared) {
      exchange.getRequestHeaders().remove(Headers.AUTHORIZATION);
    }
    exchange.setRequestURI(rest, false);
    exchange.setRequestPath(URLDecoder.decode(rest.replace("+", "%2B"), StandardCharsets.UTF_8));
    exchange.setRelativePath(exchange.getRequestPath());
    int port = exposures.port(target.project(), target.exposure().service());
    proxies.computeIfAbsent(port, ExposedRoute::proxy).handleRequest(exchange);
  }

  private record Target(Project project, StoredExposure exposure) {}

  private Target byLink(String link) {
    StoredExposure exposure = exposures.byLink(link).orElseThrow(() -> new RoundhouseException.NotFound(
        "no shared service has this link: it was never made, or it was revoked"));
    return new Target(services.project(exposure.projectId()), exposure);
  }

  private Target byName(String[] parts) {
    if (parts.length < 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new RoundhouseException.NotFound("an exposed service's path is /api/x/expose/<project>/<service>/…");
    }
    Project project = services.project(decode(parts[0]));
    String service = decode(parts[1]);
    Optional<StoredExposure> exposure = exposures.of(project.id(), service);
    return new Target(project, exposure.orElseThrow(() -> new RoundhouseException.NotFound("service " + service
        + " of project " + project.name() + " is not exposed; ask with expose_service")));
  }

  private static String decode(String segment) {
    return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /**
   * Undertow deprecates SimpleProxyClientProvider in favour of its load balancer, whose pool marks a host that
   * refused a connection as a problem for seconds and answers 404 meanwhile: a dev service restarting would then
   * stay unreachable after it is back. This one connects per client connection and holds no state of its own.
   */
  @SuppressWarnings("deprecation")
  private static ProxyHandler proxy(int port) {
    return ProxyHandler.builder()
        .setProxyClient(new SimpleProxyClientProvider(URI.create("http://127.0.0.1:" + port)))
        .setMaxRequestTime(-1)
        .setRewriteHostHeader(true)
        .setNext(ResponseCodeHandler.HANDLE_404)
        .build();
  }
}
