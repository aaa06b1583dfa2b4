package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.services.hub.ServicesApi.Access;
import dev.roundhouse.services.hub.ServicesApi.ExposeOutcome;
import dev.roundhouse.services.hub.ServicesApi.ExposeRequest;
import dev.roundhouse.services.hub.ServicesApi.ExposureList;
import dev.roundhouse.services.hub.ServicesApi.ProjectRef;
import dev.roundhouse.services.hub.ServicesApi.ServiceRef;
import dev.roundhouse.services.hub.ServicesApi.Unexposed;
import java.util.Set;

/**
 * {@code expose_service}, {@code service_unexpose} and {@code service_exposures}. Actor rules: the user exposes at
 * once; an agent (its own task's project only) or a client opens a decision that a person answers; anyone allowed
 * in the project may end an exposure or list them.
 *
 * <p>Thread-safe: stateless beyond {@link HubServices} and {@link Exposures}.
 */
final class ExposeOperations {
  static final Set<String> AGENT_TOOLS = Set.of("expose_service", "service_unexpose", "service_exposures");

  private final HubServices services;
  private final Exposures exposures;

  ExposeOperations(HubServices services, Exposures exposures) {
    this.services = services;
    this.exposures = exposures;
  }

  void register(OperationRegistry registry) {
    registry.register(Operation.of("expose_service",
        "Ask to make a dev service reachable through the hub's HTTP server (a reverse proxy to its port on 127.0.0.1,"
            + " WebSockets included): private (with the hub's token) or shared (anyone with the link, until service_unexpose)."
            + " The user decides: an agent's or a client's request is a pending decision (kind service_exposure); read the"
            + " path with service_exposures once it is approved.",
        ExposeRequest.class, ExposeOutcome.class, OperationAnnotations.CREATE, this::expose));
    registry.register(Operation.of("service_unexpose",
        "Stop serving a service through the hub: its path answers 404 at once and a shared link stops working for good.",
        ServiceRef.class, Unexposed.class, OperationAnnotations.UPDATE, this::unexpose));
    registry.register(Operation.of("service_exposures",
        "The services of a project the hub serves, each with its path below the hub's URL (a shared one's path holds its link).",
        ProjectRef.class, ExposureList.class, OperationAnnotations.READ, this::list));
  }

  private ExposeOutcome expose(Actor actor, ExposeRequest in) {
    Project project = ServiceOperations.allowed(services, actor, in.project());
    declared(project, in.service());
    Access access = in.access() == null ? Access.PRIVATE : in.access();
    if (actor.equals(Actor.USER)) {
      return new ExposeOutcome("exposed", null, exposures.expose(project, in.service(), access, actor, actor, null));
    }
    Decision decision = exposures.ask(actor, project, in.service(), access, in.reason());
    return new ExposeOutcome("pending", decision.id(), null);
  }

  private Unexposed unexpose(Actor actor, ServiceRef in) {
    Project project = ServiceOperations.allowed(services, actor, in.project());
    boolean was = exposures.unexpose(actor, project, in.service());
    return new Unexposed(project.name(), in.service(), was);
  }

  private ExposureList list(Actor actor, ProjectRef in) {
    Project project = ServiceOperations.allowed(services, actor, in.project());
    return new ExposureList(project.name(), exposures.list(project));
  }

  private void declared(Project project, String service) {
    if (services.of(project).declared(service).isEmpty()) {
      throw new RoundhouseException.NotFound("no service " + service + " in project " + project.name()
          + "; service_list shows what it declares");
    }
  }
}
