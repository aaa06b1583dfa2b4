package dev.roundhouse.hub.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.InProcessHub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.http.HttpMount;
import dev.roundhouse.hub.http.HubServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A real hub for a test: a fresh home in a temporary folder, a real SQLite file, and a real HTTP server on
 * a free loopback port. Closing it checks that no event stream was left open, then deletes the home.
 * Not thread-safe; one per test.
 */
public final class TestHub implements AutoCloseable {
  private final Path home;
  private final InProcessHub hub;
  private final HubServer server;
  private final HttpTestClient client;

  private TestHub(Path home, InProcessHub hub, HubServer server) {
    this.home = home;
    this.hub = hub;
    this.server = server;
    this.client = new HttpTestClient(server.url(), hub.token());
  }

  public static TestHub start() {
    return start(config -> config);
  }

  public static TestHub start(UnaryOperator<HubConfig> configure) {
    return start(configure, Duration.ofSeconds(15));
  }

  public static TestHub start(UnaryOperator<HubConfig> configure, Duration keepAlive) {
    return start(configure, keepAlive, java.util.List.of());
  }

  /** A hub that runs turns with {@code drivers}. */
  public static TestHub withDrivers(UnaryOperator<HubConfig> configure, java.util.List<? extends dev.roundhouse.hub.spi.AgentDriver> drivers) {
    return start(configure, Duration.ofSeconds(15), drivers);
  }

  public static TestHub start(
      UnaryOperator<HubConfig> configure, Duration keepAlive, java.util.List<? extends dev.roundhouse.hub.spi.AgentDriver> drivers) {
    return start(configure, keepAlive, drivers, hub -> java.util.List.of());
  }

  /**
   * A hub whose server also serves the mounts {@code mounts} makes for it (such as the MCP endpoint); the
   * server closes them when the test hub closes.
   */
  public static TestHub withMounts(
      UnaryOperator<HubConfig> configure, Function<Hub, java.util.List<? extends HttpMount>> mounts) {
    return start(configure, Duration.ofSeconds(15), java.util.List.of(), mounts);
  }

  /** A hub that runs turns with {@code drivers} and whose server also serves {@code mounts}. */
  public static TestHub withDriversAndMounts(
      UnaryOperator<HubConfig> configure,
      java.util.List<? extends dev.roundhouse.hub.spi.AgentDriver> drivers,
      Function<Hub, java.util.List<? extends HttpMount>> mounts) {
    return start(configure, Duration.ofSeconds(15), drivers, mounts);
  }

  /** A hub that runs turns with {@code drivers} and is extended by {@code extensions} (such as the calendar agent). */
  public static TestHub withExtensions(
      UnaryOperator<HubConfig> configure,
      java.util.List<? extends dev.roundhouse.hub.spi.AgentDriver> drivers,
      java.util.List<? extends dev.roundhouse.hub.spi.HubExtension> extensions) {
    return start(configure, Duration.ofSeconds(15), drivers, extensions, hub -> java.util.List.of());
  }

  /** A hub with {@code drivers} and {@code extensions} whose server also serves {@code mounts}. */
  public static TestHub withExtensionsAndMounts(
      UnaryOperator<HubConfig> configure,
      java.util.List<? extends dev.roundhouse.hub.spi.AgentDriver> drivers,
      java.util.List<? extends dev.roundhouse.hub.spi.HubExtension> extensions,
      Function<Hub, java.util.List<? extends HttpMount>> mounts) {
    return start(configure, Duration.ofSeconds(15), drivers, extensions, mounts);
  }

  /** Whether the hubs of this test run keep their store in PostgreSQL ({@code -Droundhouse.test.store=postgresql}). */
  public static boolean onPostgres() {
    return "postgresql".equals(System.getProperty("roundhouse.test.store"));
  }

  /**
   * The store the tests run on: SQLite in the hub's home, or with {@code -Droundhouse.test.store=postgresql}
   * a new database of the shared {@link PostgresServer} for each hub, so any hub test runs on either backend.
   */
  static HubConfig onTestStore(HubConfig config) {
    if (!onPostgres() || config.databaseUrl() != null) {
      return config;
    }
    return config.withDatabaseUrl(PostgresServer.shared().newDatabase().databaseUrl());
  }

  private static TestHub start(
      UnaryOperator<HubConfig> configure,
      Duration keepAlive,
      java.util.List<? extends dev.roundhouse.hub.spi.AgentDriver> drivers,
      Function<Hub, java.util.List<? extends HttpMount>> mounts) {
    return start(configure, keepAlive, drivers, java.util.List.of(), mounts);
  }

  private static TestHub start(
      UnaryOperator<HubConfig> configure,
      Duration keepAlive,
      java.util.List<? extends dev.roundhouse.hub.spi.AgentDriver> drivers,
      java.util.List<? extends dev.roundhouse.hub.spi.HubExtension> extensions,
      Function<Hub, java.util.List<? extends HttpMount>> mounts) {
    try {
      Path home = Files.createTempDirectory("roundhouse-test-");
      InProcessHub hub = Hub.open(onTestStore(configure.apply(HubConfig.forHome(home))), drivers, extensions);
      try {
        return new TestHub(home, hub, HubServer.start(hub, keepAlive, mounts.apply(hub)));
      } catch (RuntimeException e) {
        hub.close();
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public InProcessHub hub() {
    return hub;
  }

  public HubServer server() {
    return server;
  }

  public HttpTestClient http() {
    return client;
  }

  public Path home() {
    return home;
  }

  /** A folder that exists, for project paths. */
  public String folder(String name) {
    try {
      return Files.createDirectories(home.resolve("repos").resolve(name)).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    client.close();
    server.close();
    Waits.until("every event stream closed", Duration.ofSeconds(10), () -> hub.events().openStreams() == 0);
    hub.close();
    assertThat(hub.runner().runningLoops()).as("turn loops left running").isZero();
    assertThat(hub.events().openStreams()).isZero();
    deleteRecursively(home);
  }

  static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort
    }
  }
}
