package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.ExtensionRecord;
import dev.roundhouse.hub.spi.ExtensionRecords;
import dev.roundhouse.hub.process.ProcessJournal;
import dev.roundhouse.hub.process.ProcessRecord;
import dev.roundhouse.services.ServiceDefinition;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The services module's records in the hub's store (namespace {@value #NAMESPACE}), and their layout:
 *
 * <ul>
 *   <li>{@code def/<project id>/<service>}: a {@link StoredDefinition}, the service as declared;
 *   <li>{@code want/<project id>/<service>}: a {@link Wanted}, present while the service was asked to run and not
 *       stopped on request (what a boot restores);
 *   <li>{@code proc/<run id>}: a {@link StoredProcess}, every process group alive now (services and terminals),
 *       erased once the group is gone (what a boot reaps);
 *   <li>{@code port/<port>}: a {@link PortClaim}, the project that owns that PORT (its block);
 *   <li>{@code expose/<project id>/<service>}: a {@link StoredExposure}, a service the hub's HTTP server proxies.
 * </ul>
 *
 * <p>Thread-safe: every call is one store read or one durable write.
 */
final class ServiceRecords {
  static final String NAMESPACE = "services";
  private static final Logger LOG = LoggerFactory.getLogger(ServiceRecords.class);

  /**
   * A service as declared.
   *
   * @param projectId its project
   * @param definition the engine's definition (cwd resolved)
   * @param task the task whose working directory it runs in, or null
   * @param cwd the working directory as given (relative or absent), or null
   */
  record StoredDefinition(long projectId, ServiceDefinition definition, Long task, String cwd) {}

  /** A service asked to run (by {@code actor}, at {@code since}). */
  record Wanted(long projectId, String service, Actor actor, Instant since) {}

  /** A live process group: a service's ({@code projectId} set) or a terminal's. */
  record StoredProcess(Long projectId, ProcessRecord process) {}

  /** The project that owns a PORT. */
  record PortClaim(long projectId, String project) {}

  /**
   * A service the hub's HTTP server proxies.
   *
   * @param link the shared link's token, or null for a private exposure
   * @param decision the decision that approved it, or null when the user asked
   */
  record StoredExposure(long projectId, String service, ServicesApi.Access access, String link, Actor askedBy,
      Actor approvedBy, Long decision, Instant since) {}

  private final ExtensionRecords records;

  ServiceRecords(ExtensionRecords records) {
    this.records = records;
  }

  static String definitionKey(long project, String service) {
    return "def/" + project + "/" + service;
  }

  static String wantedKey(long project, String service) {
    return "want/" + project + "/" + service;
  }

  List<StoredDefinition> definitions(long project) {
    return read("def/" + project + "/", StoredDefinition.class);
  }

  List<Wanted> wanted() {
    return read("want/", Wanted.class);
  }

  List<StoredProcess> processes() {
    return read("proc/", StoredProcess.class);
  }

  /** Every port claim, by port. */
  Map<Integer, PortClaim> portClaims() {
    Map<Integer, PortClaim> claims = new TreeMap<>();
    for (ExtensionRecord record : records.list("port/")) {
      claims.put(Integer.parseInt(record.key().substring("port/".length())),
          Json.mapper().convertValue(record.value(), PortClaim.class));
    }
    return claims;
  }

  boolean claimPort(int port, PortClaim claim, EventDraft event) {
    return records.putIfAbsent("port/" + port, claim, event);
  }

  void putDefinition(StoredDefinition definition, EventDraft event) {
    records.put(definitionKey(definition.projectId(), definition.definition().name()), definition, event);
  }

  void deleteDefinition(long project, String service, EventDraft event) {
    records.delete(wantedKey(project, service));
    records.delete(definitionKey(project, service), event);
  }

  void want(Wanted wanted) {
    records.put(wantedKey(wanted.projectId(), wanted.service()), wanted);
  }

  void unwant(long project, String service) {
    records.delete(wantedKey(project, service));
  }

  static String exposureKey(long project, String service) {
    return "expose/" + project + "/" + service;
  }

  List<StoredExposure> exposures() {
    return read("expose/", StoredExposure.class);
  }

  List<StoredExposure> exposures(long project) {
    return read("expose/" + project + "/", StoredExposure.class);
  }

  Optional<StoredExposure> exposure(long project, String service) {
    return records.get(exposureKey(project, service), StoredExposure.class);
  }

  void putExposure(StoredExposure exposure, EventDraft event) {
    records.put(exposureKey(exposure.projectId(), exposure.service()), exposure, event);
  }

  boolean deleteExposure(long project, String service, EventDraft... events) {
    return records.delete(exposureKey(project, service), events);
  }

  void forgetProcess(ProcessRecord process) {
    records.delete("proc/" + process.runId());
  }

  /** A journal that keeps each group's record under {@code proc/<run id>}; a failed write is logged, not thrown. */
  ProcessJournal journal(Long projectId) {
    return new ProcessJournal() {
      @Override
      public void recorded(ProcessRecord record) {
        try {
          records.put("proc/" + record.runId(), new StoredProcess(projectId, record));
        } catch (RuntimeException e) {
          LOG.warn("could not store the record of {} (pid {}): a crash now would leave it for no boot to reap",
              record.owner(), record.pid(), e);
        }
      }

      @Override
      public void erased(ProcessRecord record) {
        try {
          records.delete("proc/" + record.runId());
        } catch (RuntimeException e) {
          LOG.warn("could not erase the record of {} (pid {}); the next boot finds it gone", record.owner(), record.pid(), e);
        }
      }
    };
  }

  private <T> List<T> read(String prefix, Class<T> type) {
    return records.list(prefix).stream().map(record -> Json.mapper().convertValue(record.value(), type)).toList();
  }
}
