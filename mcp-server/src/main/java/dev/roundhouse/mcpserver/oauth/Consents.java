package dev.roundhouse.mcpserver.oauth;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.spi.DecisionDesk;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sign-ins waiting for consent, and the authorization codes consent turns into. Each sign-in opens a decision of
 * kind {@value McpAuthorization#CONSENT} ("Allow <client> from <host> to use Roundhouse as you?"); answering it
 * "allow" (a person only: the {@code user} actor) lets the sign-in page hand the client one code; "deny", the
 * consent window ending ({@link AuthorizationSettings#consentTimeout}, which expires the decision) or a hub restart
 * issue nothing. A code is single-use, lives {@link AuthorizationSettings#codeLifetime}, and a second use revokes
 * the grant the first one got.
 *
 * <p>Thread-safe: sign-ins and codes are concurrent maps; an outcome is a future completed once (the answer and
 * the expiry race to complete it, so exactly one wins); the memory of used codes is guarded by a lock held only
 * for map updates. Decisions are opened and expired with no lock held; timers run on {@code timer}.
 */
final class Consents implements DecisionDesk.AnswerHandler {
  private static final Logger log = LoggerFactory.getLogger(Consents.class);
  private static final int REMEMBERED_CODES = 1024;

  private final DecisionDesk desk;
  private final Clock clock;
  private final AuthorizationSettings settings;
  private final ScheduledExecutorService timer;
  private final Map<String, SignIn> byId = new ConcurrentHashMap<>();
  private final Map<Long, SignIn> byDecision = new ConcurrentHashMap<>();
  private final Map<String, Code> codes = new ConcurrentHashMap<>();
  private final ReentrantLock usedLock = Locks.tracked("used MCP authorization codes");

  @GuardedBy("usedLock")
  private final Map<String, String> used = new LinkedHashMap<>(16, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > REMEMBERED_CODES;
    }
  };

  /** How a sign-in ended. */
  enum Outcome {
    ALLOWED,
    DENIED,
    EXPIRED
  }

  /** What a client asked for at the authorization endpoint, validated. */
  record Request(Clients.Client client, String redirectUri, String challenge, String state, String resource, String issuer) {}

  /** A sign-in waiting for consent: its page knows {@code id} and {@code nonce}. */
  static final class SignIn {
    final String id;
    final String nonce;
    final Request request;
    final long decision;
    final Instant deadline;
    final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    final CompletableFuture<String> redirect = new CompletableFuture<>();
    /** Hub tokens typed on the page so far (a few wrong ones deny the sign-in). */
    final java.util.concurrent.atomic.AtomicInteger tokenTries = new java.util.concurrent.atomic.AtomicInteger();

    SignIn(String id, String nonce, Request request, long decision, Instant deadline) {
      this.id = id;
      this.nonce = nonce;
      this.request = request;
      this.decision = decision;
      this.deadline = deadline;
    }
  }

  /** An authorization code's grant, kept by the code's digest. */
  record Code(String clientId, String redirectUri, String challenge, String resource, Instant expiresAt) {}

  Consents(DecisionDesk desk, Clock clock, AuthorizationSettings settings, ScheduledExecutorService timer) {
    this.desk = desk;
    this.clock = clock;
    this.settings = settings;
    this.timer = timer;
  }

  /** Opens the consent decision for {@code request} and returns the waiting sign-in. */
  SignIn open(Request request) {
    String host = Clients.hostOf(request.redirectUri());
    String title = "Allow " + request.client().clientName() + " from " + host + " to use Roundhouse as you?";
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("client_id", request.client().clientId());
    details.put("client_name", request.client().clientName());
    details.put("redirect_uri", request.redirectUri());
    details.put("redirect_host", host);
    details.put("resource", request.resource());
    details.put("expires_in", settings.consentTimeout().toSeconds());
    Decision decision = desk.open(Actor.client("oauth"), McpAuthorization.CONSENT, null, null, title, Json.tree(details),
        List.of(McpAuthorization.ALLOW, McpAuthorization.DENY));
    SignIn signIn = new SignIn(Secrets.mint(settings.random(), ""), Secrets.mint(settings.random(), ""), request, decision.id(),
        clock.instant().plus(settings.consentTimeout()));
    byId.put(signIn.id, signIn);
    byDecision.put(signIn.decision, signIn);
    timer.schedule(() -> expire(signIn), settings.consentTimeout().toMillis(), TimeUnit.MILLISECONDS);
    return signIn;
  }

  /** The sign-in {@code id} names when {@code nonce} is its own. */
  Optional<SignIn> find(String id, String nonce) {
    SignIn signIn = id == null ? null : byId.get(id);
    if (signIn == null || nonce == null || !Secrets.same(nonce, signIn.nonce)) {
      return Optional.empty();
    }
    return Optional.of(signIn);
  }

  @Override
  public void answering(Decision decision, String answer, String message, Actor actor) {
    SignIn signIn = byDecision.get(decision.id());
    if (signIn == null) {
      return; // the sign-in is gone (its page ended it, or the hub restarted): the answer issues nothing
    }
    if (answer.equals(McpAuthorization.ALLOW)) {
      if (actor.kind() != Actor.Kind.USER) {
        throw new RoundhouseException.Forbidden("consent_refused",
            "only a person with the hub token may let an MCP client in, not " + actor
                + "; answer it in an editor, with `roundhouse decisions`, or on the sign-in page");
      }
      if (!clock.instant().isBefore(signIn.deadline)) {
        throw new RoundhouseException.Conflict("this sign-in expired at " + signIn.deadline + "; the client must start again");
      }
      signIn.outcome.complete(Outcome.ALLOWED);
    } else {
      signIn.outcome.complete(Outcome.DENIED);
    }
  }

  /**
   * Waits up to {@code wait} for the sign-in's outcome; when there is one, returns where the browser goes next
   * (the client's redirect URI with a code, or with {@code error=access_denied}): the same URI each time asked.
   */
  Optional<String> await(SignIn signIn, Duration wait) throws InterruptedException {
    Outcome outcome;
    try {
      outcome = signIn.outcome.get(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return Optional.empty();
    } catch (ExecutionException e) {
      throw new IllegalStateException("a sign-in's outcome failed", e.getCause());
    }
    if (!signIn.redirect.isDone()) {
      signIn.redirect.complete(redirectFor(signIn, outcome));
    }
    return Optional.of(signIn.redirect.join());
  }

  /**
   * Exchanges a code: single use, unexpired, the client and redirect URI it was issued for, the PKCE verifier of
   * its challenge, and its resource.
   *
   * @param onReuse called with the client id when a code that was already used comes again (its grant is revoked)
   * @throws OAuthRefusal {@code invalid_grant} or {@code invalid_target}, saying which check failed
   */
  Code redeem(String code, String clientId, String redirectUri, String verifier, String resource, java.util.function.Consumer<String> onReuse) {
    if (code == null || code.isBlank()) {
      throw OAuthRefusal.invalidRequest("the code parameter is missing");
    }
    String digest = Secrets.digest(code);
    Code granted = codes.remove(digest);
    if (granted == null) {
      String reusedBy = usedCode(digest);
      if (reusedBy != null) {
        onReuse.accept(reusedBy);
        throw OAuthRefusal.invalidGrant("this authorization code was already used; the tokens it gave are revoked");
      }
      throw OAuthRefusal.invalidGrant("unknown or expired authorization code");
    }
    usedLock.lock();
    try {
      used.put(digest, granted.clientId());
    } finally {
      usedLock.unlock();
    }
    if (!clock.instant().isBefore(granted.expiresAt())) {
      throw OAuthRefusal.invalidGrant("the authorization code expired at " + granted.expiresAt());
    }
    if (!granted.clientId().equals(clientId)) {
      throw OAuthRefusal.invalidGrant("this authorization code was issued to another client");
    }
    if (!granted.redirectUri().equals(redirectUri)) {
      throw OAuthRefusal.invalidGrant("redirect_uri must be the one the authorization request used");
    }
    if (!Secrets.verifierMatches(verifier, granted.challenge())) {
      throw OAuthRefusal.invalidGrant("the code_verifier does not match the code_challenge (PKCE S256)");
    }
    if (resource == null || !resource.equals(granted.resource())) {
      throw OAuthRefusal.invalidTarget(resource == null
          ? "the resource parameter is missing; it must be " + granted.resource()
          : "the resource '" + resource + "' is not the one the code was issued for (" + granted.resource() + ")");
    }
    return granted;
  }

  /** Ends every sign-in still waiting, expiring its decision (the hub is stopping). */
  void closeAll() {
    for (SignIn signIn : List.copyOf(byId.values())) {
      expire(signIn);
    }
  }

  private String redirectFor(SignIn signIn, Outcome outcome) {
    Request request = signIn.request;
    Map<String, String> parameters = new LinkedHashMap<>();
    if (outcome == Outcome.ALLOWED) {
      String code = Secrets.mint(settings.random(), "rh_code_");
      codes.put(Secrets.digest(code), new Code(request.client().clientId(), request.redirectUri(), request.challenge(),
          request.resource(), clock.instant().plus(settings.codeLifetime())));
      timer.schedule(() -> codes.remove(Secrets.digest(code)), settings.codeLifetime().toMillis(), TimeUnit.MILLISECONDS);
      parameters.put("code", code);
    } else {
      parameters.put("error", "access_denied");
      parameters.put("error_description", outcome == Outcome.DENIED
          ? "the sign-in was denied in Roundhouse" : "the sign-in was not approved in time");
    }
    if (request.state() != null) {
      parameters.put("state", request.state());
    }
    parameters.put("iss", request.issuer());
    return Forms.appendQuery(request.redirectUri(), parameters);
  }

  private void expire(SignIn signIn) {
    if (signIn.outcome.complete(Outcome.EXPIRED)) {
      try {
        desk.expire(signIn.decision, "the sign-in was not answered within " + settings.consentTimeout().toSeconds() + " s");
      } catch (RuntimeException e) {
        log.warn("could not expire the consent decision {}: {}", signIn.decision, e.toString());
      }
    }
    // The page may still ask once more (it learns "not approved in time"); after a grace the sign-in is forgotten.
    timer.schedule(() -> {
      byId.remove(signIn.id);
      byDecision.remove(signIn.decision);
    }, 60, TimeUnit.SECONDS);
  }

  private String usedCode(String digest) {
    usedLock.lock();
    try {
      return used.remove(digest);
    } finally {
      usedLock.unlock();
    }
  }
}
