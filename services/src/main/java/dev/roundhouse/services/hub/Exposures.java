package dev.roundhouse.services.hub;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.services.Readiness;
import dev.roundhouse.services.hub.ServiceRecords.StoredExposure;
import dev.roundhouse.services.hub.ServicesApi.Access;
import dev.roundhouse.services.hub.ServicesApi.Exposure;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which services the hub's HTTP server proxies, and to whom: private (the hub's token) or shared (a revocable
 * link token in the path, no hub token). Kept in the store ({@code expose/<project id>/<service>}), so an exposure
 * survives a restart and ends only with {@code service_unexpose} or the service's removal. An agent or a client
 * asks through {@code expose_service}, which opens a decision of kind {@value #KIND}; only a person's approval
 * exposes (an agent cannot approve). The user asking exposes at once: the user is who decides.
 *
 * <p>Thread-safe: every call is store reads and at most one durable write; link tokens come from the injected
 * {@link SecureRandom}, which is thread-safe.
 */
final class Exposures {
  static final String KIND = "service_exposure";
  static final List<String> OPTIONS = List.of("approve", "reject");
  static final String PRIVATE_ROUTE = "expose";
  static final String SHARED_ROUTE = "share";

  private final HubServices services;
  private final SecureRandom random;

  Exposures(HubServices services, SecureRandom random) {
    this.services = services;
    this.random = random;
  }

  /** The stored exposure of a service, if any. */
  Optional<StoredExposure> of(long project, String service) {
    return services.records().exposure(project, service);
  }

  /** The shared exposure whose link token is {@code link}, compared in constant time; empty for a revoked one. */
  Optional<StoredExposure> byLink(String link) {
    byte[] presented = link.getBytes(StandardCharsets.UTF_8);
    Optional<StoredExposure> found = Optional.empty();
    for (StoredExposure exposure : services.records().exposures()) {
      if (exposure.link() != null && MessageDigest.isEqual(presented, exposure.link().getBytes(StandardCharsets.UTF_8))) {
        found = Optional.of(exposure);
      }
    }
    return found;
  }

  List<Exposure> list(Project project) {
    return services.records().exposures(project.id()).stream().map(exposure -> view(project, exposure)).toList();
  }

  /** Opens the decision that asks the user to expose a service, for {@code actor} (an agent or a client). */
  Decision ask(Actor actor, Project project, String service, Access access, String reason) {
    Long task = actor.isAgent() ? actor.taskId() : null;
    String title = "Expose service " + service + " of project " + project.name()
        + (access == Access.SHARED ? " to anyone with a link" : " through the hub (with its token)");
    JsonNode request = Json.tree(Map.of(
        "project", project.name(), "project_id", project.id(), "service", service,
        "access", Json.tree(access).asText(), "asked_by", actor.toString(), "port", port(project, service),
        "reason", reason == null ? "" : reason));
    return services.context().decisions().open(actor, KIND, project.id(), task, title, request, OPTIONS);
  }

  /**
   * Exposes a service (replacing an exposure it had: a new link for a shared one) with a {@code service.exposed}
   * event, which does not carry the link.
   */
  Exposure expose(Project project, String service, Access access, Actor askedBy, Actor approvedBy, Long decision) {
    String link = access == Access.SHARED ? newLink() : null;
    StoredExposure exposure = new StoredExposure(project.id(), service, access, link, askedBy, approvedBy, decision,
        services.context().clock().instant());
    services.records().putExposure(exposure, new EventDraft("service.exposed", approvedBy, project.id(),
        askedBy.isAgent() ? askedBy.taskId() : null, Json.tree(Map.of("project", project.name(), "service", service,
            "access", Json.tree(access).asText(), "asked_by", askedBy.toString(), "port", port(project, service)))));
    return view(project, exposure);
  }

  /** Ends a service's exposure (its link stops working at once); false when it had none. */
  boolean unexpose(Actor actor, Project project, String service) {
    return services.records().deleteExposure(project.id(), service, new EventDraft("service.unexposed", actor, project.id(),
        actor.isAgent() ? actor.taskId() : null, Json.tree(Map.of("project", project.name(), "service", service))));
  }

  /**
   * The answer to a {@value #KIND} decision: an approval by a person exposes the service as asked (once: a retry
   * of an answer the decision already applied changes nothing); a rejection exposes nothing.
   */
  void answered(Decision decision, String answer, String message, Actor actor) {
    if (!"approve".equals(answer)) {
      return;
    }
    if (actor.isAgent()) {
      throw new RoundhouseException.Forbidden("agent_cannot_approve",
          "an agent cannot approve exposing a service (decision " + decision.id() + "); a person must");
    }
    JsonNode request = decision.request();
    Project project = services.project(request.path("project_id").asLong());
    String service = request.path("service").asText();
    if (services.of(project).declared(service).isEmpty()) {
      throw new RoundhouseException.NotFound("project " + project.name() + " no longer declares service " + service
          + "; reject decision " + decision.id());
    }
    Optional<StoredExposure> existing = of(project.id(), service);
    if (existing.isPresent() && Long.valueOf(decision.id()).equals(existing.get().decision())) {
      return;
    }
    Access access = Json.mapper().convertValue(request.path("access"), Access.class);
    expose(project, service, access, Actor.parse(request.path("asked_by").asText()), actor, decision.id());
  }

  /**
   * The port on 127.0.0.1 a service is proxied to: its readiness port when it waits for one, else the project's
   * PORT.
   */
  int port(Project project, String service) {
    ProjectServices target = services.of(project);
    Readiness readiness = target.declared(service).map(stored -> stored.definition().readiness()).orElse(null);
    if (readiness != null && readiness.check() == Readiness.Check.PORT && readiness.port() > 0) {
      return readiness.port();
    }
    return services.ports().portOf(project);
  }

  Exposure view(Project project, StoredExposure exposure) {
    String path = exposure.link() != null
        ? "/api/x/" + SHARED_ROUTE + "/" + exposure.link() + "/"
        : "/api/x/" + PRIVATE_ROUTE + "/" + segment(project.name()) + "/" + segment(exposure.service()) + "/";
    return new Exposure(project.name(), exposure.service(), exposure.access(), path, port(project, exposure.service()),
        exposure.askedBy().toString(), exposure.approvedBy().toString(), exposure.decision(), exposure.since());
  }

  private static String segment(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** 256 random bits, URL-safe. */
  private String newLink() {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
