package dev.roundhouse.mcpserver.oauth;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.http.HttpMount;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;

/**
 * The MCP endpoint's own authorization server, for clients that sign in instead of sending a copied token. A hub
 * extension: its registrations and grants live in the hub's store (namespace {@value #NAMESPACE}), its consent is a
 * decision of kind {@value #CONSENT} that every face shows, and it adds {@code mcp_client_list} and
 * {@code mcp_client_revoke}. Give it to the hub ({@code Hub.open}) and then its {@link #routes} to the hub's server
 * beside the MCP endpoint, which asks {@link #verify} about bearer tokens it does not know.
 *
 * <p>Thread-safe. Started once; {@link #close()} expires the sign-ins still waiting and stops its timer.
 */
public final class McpAuthorization implements HubExtension {
  /** The decision kind of a sign-in's consent. */
  public static final String CONSENT = "mcp_consent";
  static final String ALLOW = "allow";
  static final String DENY = "deny";
  static final String NAMESPACE = "mcp-oauth";
  /** Where the protected resource metadata of {@code /mcp} is (RFC 9728), on the hub's base URL. */
  public static final String RESOURCE_METADATA = OAuthRoutes.PROTECTED_RESOURCE;

  private final AuthorizationSettings settings;
  private volatile Started started;

  private record Started(Clients clients, Grants grants, Consents consents, ScheduledExecutorService timer, Clock clock) {}

  /** Says why a browser request is refused (a foreign Origin, a Host that is not this machine), or nothing. */
  @FunctionalInterface
  public interface BrowserCheck {
    Optional<String> refusal(Function<String, String> headers);
  }

  /** What a bearer token presented at {@code /mcp} is to this authorization server. */
  public sealed interface Access {}

  /** One of its live access tokens, for this endpoint, held by {@code clientName}. */
  public record Granted(String clientId, String clientName) implements Access {}

  /** One of its access tokens, past its lifetime (the client should refresh it). */
  public record Expired(String clientId) implements Access {}

  /** One of its access tokens, issued for another resource (audience) than this endpoint. */
  public record ForeignAudience(String resource) implements Access {}

  /** Not a token it issued (or one revoked). */
  public record NotIssued() implements Access {}

  public McpAuthorization(AuthorizationSettings settings) {
    this.settings = settings;
  }

  @Override
  public String name() {
    return "mcp-authorization";
  }

  /** Registers the operations in {@code registry} for their descriptions only; the registry must never invoke them. */
  public static void describe(OperationRegistry registry) {
    McpClientOperations.register(registry, null, Clock.systemUTC());
  }

  @Override
  public void start(ExtensionContext context) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().name("mcp-oauth-timer").daemon().factory());
    var records = context.records(NAMESPACE);
    Consents consents = new Consents(context.decisions(), context.clock(), settings, timer);
    started = new Started(new Clients(records, context.clock(), settings.random()), new Grants(records, context.clock(), settings),
        consents, timer, context.clock());
    context.decisions().onAnswer(CONSENT, consents);
    McpClientOperations.register(context.operations(), this, context.clock());
  }

  /**
   * The authorization server's routes for {@code hub}'s HTTP server: the metadata documents and {@code /oauth/*}, each
   * request checked by {@code browser} first; the sign-in page accepts {@code hub}'s token as a person's consent.
   *
   * @throws IllegalStateException when this extension was not started with {@code hub}
   */
  public HttpMount routes(Hub hub, BrowserCheck browser) {
    state();
    return new OAuthRoutes(this, browser, hub::token, hub.operations(), !hub.config().allowRemote());
  }

  /**
   * What {@code bearer} is, presented at the MCP endpoint reached on {@code port} of this machine as {@code host}
   * (the request's {@code Host} header, or null): the audience check compares the token's resource with that.
   */
  public Access verify(String bearer, String host, int port, boolean loopbackOnly) {
    Started state = started;
    if (state == null) {
      return new NotIssued();
    }
    return switch (state.grants().check(bearer)) {
      case Grants.Unknown unknown -> new NotIssued();
      case Grants.Expired expired -> new Expired(expired.clientId());
      case Grants.Valid valid -> {
        if (!OAuthRoutes.denotesThisHub(valid.grant().resource(), host, port, loopbackOnly)) {
          yield new ForeignAudience(valid.grant().resource());
        }
        String name = state.clients().get(valid.grant().clientId()).map(Clients.Client::clientName).orElse(valid.grant().clientId());
        yield new Granted(valid.grant().clientId(), name);
      }
    };
  }

  @Override
  public void close() {
    Started state = started;
    if (state != null) {
      state.consents().closeAll();
      state.timer().shutdownNow();
    }
  }

  AuthorizationSettings settings() {
    return settings;
  }

  Clients clients() {
    return state().clients();
  }

  Grants grants() {
    return state().grants();
  }

  Consents consents() {
    return state().consents();
  }

  private Started state() {
    Started state = started;
    if (state == null) {
      throw new IllegalStateException("the MCP authorization server was not started: pass it to Hub.open as an extension");
    }
    return state;
  }
}
