package dev.roundhouse.hub;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.retention.RetentionSettings;
import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.schedules.SchedulerSettings;
import dev.roundhouse.hub.turns.RunnerSettings;

/**
 * Everything a hub is started with. Built from the environment ({@link #fromEnvironment}) and then
 * overridden by command-line flags; every setting is documented in {@code docs/configuration.md}.
 * Immutable.
 *
 * @param home the Roundhouse home: database, token, lock ({@code ROUNDHOUSE_HOME}, default ~/.roundhouse)
 * @param bind the address to listen on ({@code ROUNDHOUSE_BIND}, default 127.0.0.1)
 * @param port the port ({@code ROUNDHOUSE_PORT}, default 7420; 0 picks a free one)
 * @param allowRemote must be true to bind an address other than loopback ({@code --allow-remote})
 * @param allowedOrigins browser origins allowed besides loopback ({@code ROUNDHOUSE_ALLOWED_ORIGINS})
 * @param maxBodyBytes the largest request body accepted ({@code ROUNDHOUSE_MAX_BODY_BYTES}, 1 MiB)
 * @param streamBuffer how many events a slow event-stream viewer may fall behind before it is
 *     disconnected ({@code ROUNDHOUSE_STREAM_BUFFER}, 4096)
 * @param maxBatch the most writes group-committed in one transaction (256; 1 disables group commit)
 * @param runner the turn runner's timings (idle, linger, decision timeouts)
 * @param scheduler whether schedules fire, and the scheduler's tick and grace ({@code ROUNDHOUSE_SCHEDULER*})
 * @param retention how long finished tasks keep their events ({@code ROUNDHOUSE_RETENTION_DAYS}, 30; {@code
 *     off} or 0: no automatic pruning), see {@code docs/retention.md}
 * @param clock the clock every timestamp comes from
 * @param databaseUrl the PostgreSQL database to keep everything in ({@code ROUNDHOUSE_DATABASE_URL}, {@code
 *     serve --database}); null for the default, SQLite in {@link #database()}
 * @param metricsToken a second bearer token that {@code GET /metrics} accepts and no other route does ({@code
 *     ROUNDHOUSE_METRICS_TOKEN}), for a scraper that should not hold the hub's token; null for none
 */
public record HubConfig(
    Path home,
    String bind,
    int port,
    boolean allowRemote,
    List<String> allowedOrigins,
    int maxBodyBytes,
    int streamBuffer,
    int maxBatch,
    RunnerSettings runner,
    SchedulerSettings scheduler,
    RetentionSettings retention,
    Clock clock,
    DatabaseUrl databaseUrl,
    String metricsToken) {

  public static final int DEFAULT_PORT = 7420;

  public HubConfig {
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(bind, "bind");
    allowedOrigins = List.copyOf(allowedOrigins);
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(retention, "retention");
    if (port < 0 || port > 65535) {
      throw new RoundhouseException.InvalidInput("port " + port + " is not between 0 and 65535");
    }
  }

  /** Defaults, overridden by the {@code ROUNDHOUSE_*} variables in {@code env}. */
  public static HubConfig fromEnvironment(Map<String, String> env) {
    Path home =
        env.containsKey("ROUNDHOUSE_HOME") && !env.get("ROUNDHOUSE_HOME").isBlank()
            ? Path.of(env.get("ROUNDHOUSE_HOME"))
            : Path.of(System.getProperty("user.home"), ".roundhouse");
    return new HubConfig(
        home.toAbsolutePath(),
        env.getOrDefault("ROUNDHOUSE_BIND", "127.0.0.1"),
        intSetting(env, "ROUNDHOUSE_PORT", DEFAULT_PORT),
        false,
        env.containsKey("ROUNDHOUSE_ALLOWED_ORIGINS")
            ? Arrays.stream(env.get("ROUNDHOUSE_ALLOWED_ORIGINS").split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList()
            : List.of(),
        intSetting(env, "ROUNDHOUSE_MAX_BODY_BYTES", 1 << 20),
        intSetting(env, "ROUNDHOUSE_STREAM_BUFFER", 4096),
        256,
        RunnerSettings.fromEnvironment(env),
        SchedulerSettings.fromEnvironment(env),
        RetentionSettings.fromEnvironment(env),
        Clock.systemUTC(),
        databaseUrl(env),
        blankToNull(env.get("ROUNDHOUSE_METRICS_TOKEN")));
  }

  /** A config for a hub in {@code home} on a free loopback port; for tests and tools. */
  public static HubConfig forHome(Path home) {
    return new HubConfig(
        home.toAbsolutePath(), "127.0.0.1", 0, false, List.of(), 1 << 20, 4096, 256,
        RunnerSettings.DEFAULTS, SchedulerSettings.DEFAULTS, RetentionSettings.DEFAULTS, Clock.systemUTC(), null, null);
  }

  /** The SQLite database file, used when no {@link #databaseUrl()} is set. */
  public Path database() {
    return home.resolve("roundhouse.db");
  }

  public Path tokenFile() {
    return home.resolve("token");
  }

  public Path lockFile() {
    return home.resolve("hub.lock");
  }

  public HubConfig withPort(int newPort) {
    return new HubConfig(home, bind, newPort, allowRemote, allowedOrigins, maxBodyBytes, streamBuffer, maxBatch, runner, scheduler, retention, clock, databaseUrl, metricsToken);
  }

  public HubConfig withBind(String address, boolean remote) {
    return new HubConfig(home, address, port, remote, allowedOrigins, maxBodyBytes, streamBuffer, maxBatch, runner, scheduler, retention, clock, databaseUrl, metricsToken);
  }

  public HubConfig withMaxBodyBytes(int bytes) {
    return new HubConfig(home, bind, port, allowRemote, allowedOrigins, bytes, streamBuffer, maxBatch, runner, scheduler, retention, clock, databaseUrl, metricsToken);
  }

  public HubConfig withStreamBuffer(int events) {
    return new HubConfig(home, bind, port, allowRemote, allowedOrigins, maxBodyBytes, events, maxBatch, runner, scheduler, retention, clock, databaseUrl, metricsToken);
  }

  public HubConfig withAllowedOrigins(List<String> origins) {
    return new HubConfig(home, bind, port, allowRemote, origins, maxBodyBytes, streamBuffer, maxBatch, runner, scheduler, retention, clock, databaseUrl, metricsToken);
  }

  public HubConfig withMaxBatch(int batch) {
    return new HubConfig(home, bind, port, allowRemote, allowedOrigins, maxBodyBytes, streamBuffer, batch, runner, scheduler, retention, clock, databaseUrl, metricsToken);
  }

  public HubConfig withRunner(RunnerSettings settings) {
    return new HubConfig(home, bind, port, allowRemote, allowedOrigins, maxBodyBytes, streamBuffer, maxBatch, settings, scheduler, retention, clock, databaseUrl, metricsToken);
  }

  public HubConfig withScheduler(SchedulerSettings settings) {
    return new HubConfig(home, bind, port, allowRemote, allowedOrigins, maxBodyBytes, streamBuffer, maxBatch, runner, settings, retention, clock, databaseUrl, metricsToken);
  }

  public HubConfig withRetention(RetentionSettings settings) {
    return new HubConfig(home, bind, port, allowRemote, allowedOrigins, maxBodyBytes, streamBuffer, maxBatch, runner, scheduler, settings, clock, databaseUrl, metricsToken);
  }

  public HubConfig withClock(Clock newClock) {
    return new HubConfig(home, bind, port, allowRemote, allowedOrigins, maxBodyBytes, streamBuffer, maxBatch, runner, scheduler, retention, newClock, databaseUrl, metricsToken);
  }

  public HubConfig withDatabaseUrl(DatabaseUrl url) {
    return new HubConfig(home, bind, port, allowRemote, allowedOrigins, maxBodyBytes, streamBuffer, maxBatch, runner, scheduler, retention, clock, url, metricsToken);
  }

  public HubConfig withMetricsToken(String token) {
    return new HubConfig(home, bind, port, allowRemote, allowedOrigins, maxBodyBytes, streamBuffer, maxBatch, runner, scheduler, retention, clock, databaseUrl, token);
  }

  /** As the record's, without the metrics token (the database URL's own text has no password). */
  @Override
  public String toString() {
    return "HubConfig[home=" + home + ", bind=" + bind + ", port=" + port + ", allowRemote=" + allowRemote + ", store="
        + storeLocation() + ", metricsToken=" + (metricsToken == null ? "none" : "set") + "]";
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  /** Where the store lives, for {@code doctor} and logs: the SQLite file, or the PostgreSQL URL without its password. */
  public String storeLocation() {
    return databaseUrl == null ? "sqlite " + database() : "postgresql " + databaseUrl.redacted();
  }

  private static DatabaseUrl databaseUrl(Map<String, String> env) {
    String url = env.get("ROUNDHOUSE_DATABASE_URL");
    return url == null || url.isBlank() ? null : DatabaseUrl.parse(url, env);
  }

  private static int intSetting(Map<String, String> env, String name, int fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new RoundhouseException.InvalidInput(name + "='" + value + "' is not a whole number");
    }
  }
}
