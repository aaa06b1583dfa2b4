package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.HomeLock;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import java.time.Instant;
import dev.roundhouse.hub.model.Worker;
import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.process.Containment;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The checks behind {@code roundhouse doctor}, in order: Java, home folder, database, token, hub, the running hub's scheduler, port,
 * how turns' processes are contained, and the agent CLIs. Each names what it found. Thread-safe: no shared state; the agent probes run in
 * parallel on virtual threads.
 */
final class Doctor {
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  private final Context context;
  private final Duration timeout;

  /**
   * @param timeout how long the hub may take to answer its health check (each agent driver has its own
   *     limits for its checks)
   */
  Doctor(Context context, Duration timeout) {
    this.context = context;
    this.timeout = timeout;
  }

  List<Check> run() {
    List<Check> checks = new ArrayList<>();
    checks.add(java());
    HubConfig config = null;
    try {
      config = context.hubConfig();
    } catch (RoundhouseException e) {
      checks.add(Check.fail("config", e.getMessage()));
    }
    if (config != null) {
      checks.add(home(config.home()));
      if (config.databaseUrl() == null) {
        checks.add(database(config.database()));
      } else {
        checks.add(postgres(config.databaseUrl()));
        checks.add(workers(config.databaseUrl(), Instant.now()));
      }
      checks.add(token(config.tokenFile()));
      Optional<String> hubUrl = runningHub(config);
      HubAnswer hub = hub(config, hubUrl);
      checks.add(hub.check());
      hub.health().ifPresent(health -> checks.add(scheduler(health)));
      checks.add(port(config, hubUrl));
      checks.add(processes(config, hub.health()));
      checks.addAll(agents(config));
    }
    return checks;
  }

  static Check java() {
    Runtime.Version version = Runtime.version();
    String where = "Java " + version + " (" + System.getProperty("java.vendor", "?") + ") at " + System.getProperty("java.home");
    return version.feature() >= 21
        ? Check.ok("java", where)
        : Check.fail("java", where + ": Roundhouse needs Java 21 or newer");
  }

  static Check home(Path home) {
    if (!Files.exists(home)) {
      return Check.warn("home", home + " does not exist yet; serve creates it");
    }
    if (!Files.isDirectory(home)) {
      return Check.fail("home", home + " is not a folder; set ROUNDHOUSE_HOME to a folder");
    }
    if (!Files.isWritable(home)) {
      return Check.fail("home", home + " is not writable by this user");
    }
    return Check.ok("home", home + " (writable)");
  }

  static Check database(Path database) {
    if (!Files.exists(database)) {
      return Check.warn("database", database + " not created yet; serve creates it");
    }
    try {
      return Check.ok("database", database + " (" + size(Files.size(database)) + ")");
    } catch (IOException e) {
      return Check.fail("database", "cannot read " + database + ": " + e.getMessage());
    }
  }

  /** Connects to the PostgreSQL store and says which server and schema version it holds. */
  static Check postgres(DatabaseUrl url) {
    try {
      return Check.ok("database", "postgresql " + url.redacted() + " (" + Hub.describeDatabase(url) + ")");
    } catch (RoundhouseException e) {
      return Check.fail("database", e.getMessage());
    }
  }

  /** The hubs registered on the PostgreSQL database, with the age of each one's heartbeat. */
  static Check workers(DatabaseUrl url, Instant now) {
    List<Worker> workers;
    try {
      workers = Hub.databaseWorkers(url);
    } catch (RoundhouseException e) {
      return Check.fail("workers", e.getMessage());
    }
    if (workers.isEmpty()) {
      return Check.ok("workers", "none registered (no hub is running on this database)");
    }
    List<String> lines = new ArrayList<>();
    boolean lost = false;
    for (Worker w : workers) {
      long silent = Math.max(0, Duration.between(w.heartbeatAt(), now).toSeconds());
      boolean gone = w.lost(now);
      lost |= gone;
      lines.add("pid " + w.pid() + " on " + w.host() + (w.url() == null ? "" : " at " + w.url()) + ", heartbeat "
          + silent + " s ago" + (gone ? " (lost: not running, or cannot reach the database)" : ""));
    }
    String detail = String.join("; ", lines);
    return lost ? Check.warn("workers", detail) : Check.ok("workers", detail);
  }

  static Check token(Path token) {
    if (!Files.exists(token)) {
      return Check.warn("token", token + " not created yet; serve creates it");
    }
    try {
      Set<PosixFilePermission> mode = Files.getPosixFilePermissions(token);
      if (!mode.equals(OWNER_ONLY)) {
        return Check.fail(
            "token",
            token + " has mode " + PosixFilePermissions.toString(mode) + ", readable beyond its owner; run chmod 600 " + token);
      }
      return Check.ok("token", token + " (mode 0600)");
    } catch (UnsupportedOperationException e) {
      return Check.ok("token", token + " (permissions not checked on this file system)");
    } catch (IOException e) {
      return Check.fail("token", "cannot read the mode of " + token + ": " + e.getMessage());
    }
  }

  /** The URL of the hub holding this home's lock, or of ROUNDHOUSE_URL; empty when none runs. */
  private Optional<String> runningHub(HubConfig config) {
    Optional<String> variable = context.variable(HubEndpoint.URL_VARIABLE);
    if (variable.isPresent()) {
      return variable;
    }
    if (!HomeLock.isHeld(config.lockFile())) {
      return Optional.empty();
    }
    return Optional.of(
        HomeLock.readHolder(config.lockFile()).map(holder -> holder.path("url").asText("")).orElse(""));
  }

  /** The {@code hub} check, and the hub's {@code /api/health} answer when it gave one. */
  private record HubAnswer(Check check, Optional<JsonNode> health) {
    HubAnswer(Check check) {
      this(check, Optional.empty());
    }
  }

  private HubAnswer hub(HubConfig config, Optional<String> url) {
    if (url.isEmpty()) {
      return new HubAnswer(Check.ok("hub", "not running for " + config.home() + "; start one with ./roundhouse serve"));
    }
    if (url.get().isEmpty()) {
      return new HubAnswer(Check.warn("hub", "a hub holds " + config.lockFile() + " but has not published its URL yet"));
    }
    String health = url.get().replaceAll("/+$", "") + "/api/health";
    try (HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build()) {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(health)).timeout(timeout).GET();
      localToken(config).ifPresent(token -> request.header("Authorization", "Bearer " + token)); // the scheduler is answered to it
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return new HubAnswer(Check.fail("hub", health + " answered HTTP " + response.statusCode()));
      }
      JsonNode body = Json.mapper().readTree(response.body());
      return new HubAnswer(Check.ok("hub", "running at " + url.get() + ", version " + body.path("version").asText("?")), Optional.of(body));
    } catch (IOException | IllegalArgumentException e) {
      return new HubAnswer(Check.fail("hub", "the hub's " + health + " does not answer: " + e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new HubAnswer(Check.fail("hub", "interrupted while asking " + health));
    }
  }

  /** The home's token, when this user can read it: the health check then also answers the scheduler's status. */
  private static Optional<String> localToken(HubConfig config) {
    try {
      return Optional.of(java.nio.file.Files.readString(config.tokenFile()).strip()).filter(token -> !token.isEmpty());
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * The {@code scheduler} check, from the running hub's {@code /api/health} ({@code scheduler_status}): ok with the
   * last tick, next firing and active schedules; a warning naming the reason when it looks stuck (the hub still
   * serves, but schedules fire late or not at all), or when it is switched off while schedules are active; ok
   * ("off") when switched off with nothing to fire.
   */
  static Check scheduler(JsonNode health) {
    JsonNode status = health.path("scheduler");
    if (!status.isObject()) {
      return Check.warn("scheduler", "the hub does not report its scheduler in /api/health (a hub older than schedules?)");
    }
    int active = status.path("active_schedules").asInt();
    String schedules = Texts.count(active, "active schedule");
    if (!status.path("enabled").asBoolean(true)) {
      String off = "off: switched off by configuration (ROUNDHOUSE_SCHEDULER=off)";
      return active == 0
          ? Check.ok("scheduler", off)
          : Check.warn("scheduler", off + "; " + schedules + " will not fire");
    }
    String lastTick = status.hasNonNull("last_tick") ? "last tick " + Texts.time(status.path("last_tick")) : "no tick yet";
    String next = status.hasNonNull("next_firing") ? "next firing " + Texts.time(status.path("next_firing")) : "no firing due";
    if (status.path("stuck").asBoolean()) {
      return Check.warn("scheduler", "looks stuck: " + status.path("reason").asText("no reason given") + " (" + lastTick + ", "
          + next + ", " + schedules + "); see roundhouse schedule status and the hub's log");
    }
    return Check.ok("scheduler", lastTick + ", " + next + ", " + schedules);
  }

  private static Check port(HubConfig config, Optional<String> hubUrl) {
    if (hubUrl.isPresent()) {
      return Check.ok("port", "in use by the hub" + (hubUrl.get().isEmpty() ? "" : " at " + hubUrl.get()));
    }
    int port = config.port();
    if (port == 0) {
      return Check.ok("port", "0: the hub picks a free port when it starts");
    }
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return Check.ok("port", port + " is free on 127.0.0.1");
    } catch (IOException e) {
      return Check.fail(
          "port",
          port + " on 127.0.0.1 is in use by another program (" + e.getMessage() + "); set ROUNDHOUSE_PORT or pass --port to serve");
    }
  }

  /**
   * The {@code processes} check: how the processes of turns are contained, as the running hub reports it in
   * {@code /api/health}, or as a hub started now would find this machine (probed here: a cgroup is made and
   * removed). Ok when the kernel itself ends them (a cgroup, or a parent-death signal); a warning when only the
   * run marker and process groups are left, which a process that clears its environment and leaves its group
   * escapes until the next boot.
   */
  static Check processes(HubConfig config, Optional<JsonNode> health) {
    String active;
    String cgroup;
    String parentDeath;
    String source;
    JsonNode reported = health.map(h -> h.path("processes")).filter(JsonNode::isObject).orElse(null);
    if (reported != null) {
      active = reported.path("active").asText();
      cgroup = reported.path("cgroup").asText();
      parentDeath = reported.path("parent_death").asText();
      source = "the running hub";
    } else {
      Containment containment = Containment.detect(config.home(), config.clock());
      try {
        active = containment.mechanisms().summary();
        cgroup = containment.mechanisms().cgroupNote();
        parentDeath = containment.mechanisms().parentDeathNote();
        source = "a hub started now";
      } finally {
        containment.close();
      }
    }
    String detail = active + " (" + source + "; cgroup: " + cgroup + "; parent death: " + parentDeath + ")";
    return active.contains("cgroup") || active.contains("parent-death")
        ? Check.ok("processes", detail)
        : Check.warn("processes", detail + "; a process that clears its environment and leaves its group survives a stop"
            + " until the next boot");
  }

  /**
   * Every agent driver this hub would run (as {@code agents.json} configures them) but the script one, with
   * its own check: installed? which version? logged in or keyed? Checked in parallel.
   */
  private List<Check> agents(HubConfig config) {
    List<AgentDriver> drivers;
    try {
      drivers = Drivers.all(context, config).stream().filter(d -> !d.id().equals("script")).toList();
    } catch (RoundhouseException e) {
      return List.of(Check.fail("agents", e.getMessage()));
    }
    try (ExecutorService probes = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<AuthStatus>> futures = drivers.stream().map(d -> probes.submit(d::authStatus)).toList();
      List<Check> checks = new ArrayList<>();
      for (int i = 0; i < futures.size(); i++) {
        String id = drivers.get(i).id();
        try {
          AuthStatus status = futures.get(i).get();
          checks.add(status.ok() ? Check.ok(id, status.detail()) : Check.warn(id, status.detail()));
        } catch (ExecutionException e) {
          checks.add(Check.warn(id, "the check failed: " + e.getCause().getMessage()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          checks.add(Check.warn(id, "interrupted"));
        }
      }
      return checks;
    }
  }

  private static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " bytes";
    }
    double value = bytes;
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }
}
