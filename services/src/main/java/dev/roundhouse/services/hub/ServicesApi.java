package dev.roundhouse.services.hub;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.roundhouse.services.LogLine;
import dev.roundhouse.services.Readiness;
import dev.roundhouse.services.RestartPolicy;
import dev.roundhouse.services.ServiceKind;
import dev.roundhouse.services.ServiceState;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The wire records of the {@code service_*} operations: their JSON schemas are derived from these, with the
 * hub's snake_case names. Typed clients (the CLI) build their inputs from them. Immutable.
 */
public final class ServicesApi {
  private ServicesApi() {}

  static final String PROJECT = "Project id, or its exact name (case-insensitive)";
  static final String SERVICE = "Service name within the project";

  /** A project. */
  public record ProjectRef(@JsonProperty(required = true) @JsonPropertyDescription(PROJECT) String project) {}

  /** One service of a project. */
  public record ServiceRef(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT) String project,
      @JsonProperty(required = true) @JsonPropertyDescription(SERVICE) String service,
      @JsonPropertyDescription("Wait for an outcome, up to this many seconds (at most 300): ready (a setup service: exited), failed or stopped; 0 or absent: answer at once")
          Integer waitSeconds) {
    public ServiceRef(String project, String service) {
      this(project, service, null);
    }
  }

  /** A service's definition and its state. */
  public record ServiceView(
      @JsonPropertyDescription("How the project declared it") Definition definition,
      @JsonPropertyDescription("Where it is now") ServiceState state) {}

  /** A project's services. */
  public record ServiceList(
      String project,
      long projectId,
      @JsonPropertyDescription("The project's PORT, given to every service, terminal and agent turn") int port,
      @JsonPropertyDescription("The project's extra ports, PORT_1 to PORT_9") Map<String, Integer> extraPorts,
      List<ServiceView> services) {}

  /**
   * A service as declared (the input of service_define; the parts of service_update).
   */
  public record Definition(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT) String project,
      @JsonProperty(required = true)
          @JsonPropertyDescription("1-64 lower case letters, digits, '-' or '_', unique in the project") String name,
      @JsonPropertyDescription("A command line, such as 'python3 -m http.server $PORT' (run without a shell unless it uses shell syntax); give this or argv")
          String command,
      @JsonPropertyDescription("The program and its arguments, run as is; give this or command") List<String> argv,
      @JsonPropertyDescription("Working directory: absolute, or relative to the project's folder (or the task's worktree with task); the project's folder when absent")
          String cwd,
      @JsonPropertyDescription("Run in this task's working directory (its worktree when the workspace module gives it one)")
          Long task,
      @JsonPropertyDescription("Variables added to its environment, each NAME=value (PORT and PORT_1..PORT_9 are the project's)")
          List<String> env,
      @JsonPropertyDescription("setup (runs to completion before dependants), dev (default), test or custom") ServiceKind kind,
      @JsonPropertyDescription("When it is restarted after exiting on its own, and the backoff (default: never)")
          Restart restart,
      @JsonPropertyDescription("When it counts as ready: none (default), port (the project's PORT unless given) or log (a regex)")
          Ready readiness,
      @JsonPropertyDescription("Services that must be finished (setup) or ready (others) first") List<String> dependsOn) {}

  /**
   * A restart policy.
   *
   * @param mode never, on_failure (non-zero exit or readiness timeout) or always
   */
  public record Restart(
      @JsonProperty(required = true) RestartPolicy.Mode mode,
      @JsonPropertyDescription("First delay before a restart (default 1000); it doubles with each restart in a row") Long initialBackoffMillis,
      @JsonPropertyDescription("Longest delay (default 60000)") Long maxBackoffMillis,
      @JsonPropertyDescription("A run this long counts the next failure as the first again (default 30000)") Long stableAfterMillis) {

    RestartPolicy policy() {
      return new RestartPolicy(mode, orZero(initialBackoffMillis), orZero(maxBackoffMillis), orZero(stableAfterMillis));
    }

    static Restart of(RestartPolicy policy) {
      return new Restart(policy.mode(), policy.initialBackoffMillis(), policy.maxBackoffMillis(), policy.stableAfterMillis());
    }
  }

  /**
   * A readiness check.
   *
   * @param check none, port or log
   */
  public record Ready(
      @JsonProperty(required = true) Readiness.Check check,
      @JsonPropertyDescription("For port: the port to wait for; absent or 0: the project's PORT") Integer port,
      @JsonPropertyDescription("For log: a regular expression found in a line of output") String pattern,
      @JsonPropertyDescription("Not ready within this long (default 60000): stopped, and counted as a failure") Long timeoutMillis) {

    Readiness readiness() {
      return new Readiness(check, port == null ? 0 : port, pattern, orZero(timeoutMillis));
    }

    static Ready of(Readiness readiness) {
      return new Ready(readiness.check(), readiness.port() == 0 ? null : readiness.port(), readiness.pattern(), readiness.timeoutMillis());
    }
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }

  /** What service_define and service_update answer. */
  public record Defined(Definition definition, ServiceState state, @JsonPropertyDescription("True when it was new") boolean created) {}

  /** What service_remove answers. */
  public record Removed(String project, String service) {}

  /** service_logs input. */
  public record LogsQuery(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT) String project,
      @JsonProperty(required = true) @JsonPropertyDescription(SERVICE) String service,
      @JsonPropertyDescription("Read from this offset (the next_offset of the previous read); negative: that many lines back from the end; absent: the last 200 lines")
          Long from,
      @JsonPropertyDescription("At most this many lines (default 200, at most 2000)") Integer limit) {}

  /** service_logs output. */
  public record Logs(
      String service,
      @JsonPropertyDescription("Oldest first; a line of stream 'marker' says how many lines were skipped") List<LogLine> lines,
      @JsonPropertyDescription("Lines dropped by the bounded log before this reader got to them") long missed,
      @JsonPropertyDescription("Pass as 'from' to read on") long nextOffset) {}

  /** Who may reach an exposed service through the hub. */
  public enum Access {
    /** Whoever presents the hub's token (curl, an editor, the CLI). */
    @JsonProperty("private")
    PRIVATE,
    /** Whoever holds the link: a revocable, unguessable token in its path, no hub token (a browser, a colleague). */
    @JsonProperty("shared")
    SHARED
  }

  /** expose_service input. */
  public record ExposeRequest(
      @JsonProperty(required = true) @JsonPropertyDescription(PROJECT) String project,
      @JsonProperty(required = true) @JsonPropertyDescription(SERVICE) String service,
      @JsonPropertyDescription("private (default): reachable through the hub with its token; shared: reachable by anyone holding the link, until service_unexpose")
          Access access,
      @JsonPropertyDescription("Why it should be reachable: shown to the person who decides") String reason) {}

  /** What expose_service answers. */
  public record ExposeOutcome(
      @JsonPropertyDescription("exposed (reachable now: the user asked), or pending (a decision of kind service_exposure awaits the user)")
          String status,
      @JsonPropertyDescription("The decision to answer (approve or reject), when pending") Long decision,
      @JsonPropertyDescription("The exposure, when exposed") Exposure exposure) {}

  /** A service the hub serves through its own HTTP server. */
  public record Exposure(
      String project,
      String service,
      Access access,
      @JsonPropertyDescription("Where the hub serves it, below its URL: /api/x/expose/<project>/<service>/ (with the hub's token) or, shared, /api/x/share/<link>/ (no token)")
          String path,
      @JsonPropertyDescription("The port on 127.0.0.1 it is proxied to") int port,
      @JsonPropertyDescription("Who asked for it") String askedBy,
      @JsonPropertyDescription("Who exposed it: the person who approved, or who asked") String approvedBy,
      @JsonPropertyDescription("The decision that approved it, if one did") Long decision,
      Instant since) {}

  /** service_exposures output. */
  public record ExposureList(String project, List<Exposure> exposures) {}

  /** service_unexpose output. */
  public record Unexposed(String project, String service,
      @JsonPropertyDescription("False when it was not exposed (nothing changed)") boolean wasExposed) {}
}
