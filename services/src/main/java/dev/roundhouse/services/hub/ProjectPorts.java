package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.services.PortPlan;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each project's stable {@code PORT}: chosen once by the {@link PortPlan} from the project's name, then stored
 * as a claim on that port ({@code port/<port>}), so the project keeps it across renames, restarts and projects
 * added later. Two projects assigned at once cannot get the same block: the claim is a put-if-absent, and the
 * loser chooses again. Thread-safe; holds no lock (a cache of what is stored).
 */
final class ProjectPorts {
  private static final int MAX_TRIES = 100;

  private final PortPlan plan;
  private final ServiceRecords records;
  private final ConcurrentHashMap<Long, Integer> cache = new ConcurrentHashMap<>();

  ProjectPorts(PortPlan plan, ServiceRecords records) {
    this.plan = plan;
    this.records = records;
  }

  /** The project's PORT, assigned (and stored, with a {@code service.port_assigned} event) on first use. */
  int portOf(Project project) {
    Integer known = cache.get(project.id());
    if (known != null) {
      return known;
    }
    for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
      Map<String, Integer> assigned = new HashMap<>();
      for (Map.Entry<Integer, ServiceRecords.PortClaim> claim : records.portClaims().entrySet()) {
        if (claim.getValue().projectId() == project.id()) {
          cache.put(project.id(), claim.getKey());
          return claim.getKey();
        }
        assigned.put("#" + claim.getValue().projectId(), claim.getKey());
      }
      int port = plan.portFor(project.name(), assigned);
      EventDraft event = new EventDraft("service.port_assigned", Actor.SCHEDULER, project.id(), null,
          Json.tree(Map.of("project", project.name(), "port", port)));
      if (records.claimPort(port, new ServiceRecords.PortClaim(project.id(), project.name()), event)) {
        cache.put(project.id(), port);
        return port;
      }
    }
    throw new IllegalStateException("could not assign a port to project " + project.name() + " in " + MAX_TRIES + " tries");
  }

  /** The project's extra ports by variable name: {@code PORT_1} to {@code PORT_9} (with the default plan). */
  Map<String, Integer> extraPorts(int port) {
    Map<String, Integer> extras = new LinkedHashMap<>();
    for (int index = 1; index < plan.blockSize(); index++) {
      extras.put("PORT_" + index, plan.extraPort(port, index));
    }
    return extras;
  }

  /** PORT and the extra ports as environment variables. */
  Map<String, String> environment(Project project) {
    int port = portOf(project);
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("PORT", String.valueOf(port));
    extraPorts(port).forEach((name, value) -> environment.put(name, String.valueOf(value)));
    return environment;
  }
}
