package dev.roundhouse.hub.testing;

import dev.roundhouse.hub.core.DatabaseUrl;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real PostgreSQL server for the tests: a private cluster ({@code initdb}) in a temporary folder, listening
 * on 127.0.0.1 on a free port, with password authentication, started once per test JVM and given a fresh
 * database per caller ({@link #newDatabase()}). The binaries are Debian's {@code postgresql} package's
 * ({@code /usr/lib/postgresql/N/bin}, the newest N), or those in {@code ROUNDHOUSE_TEST_PG_BIN}; {@code
 * .ci/run} installs the package. Without them a test that needs the server is skipped, saying so, except
 * under CI, where it fails. PostgreSQL refuses to run as root, so under root the server runs as the
 * package's {@code postgres} user.
 *
 * <p>The server cannot outlive the JVM: it runs under a shell that holds the read end of a pipe from this
 * JVM and stops the server (immediate shutdown) when that pipe closes, which a SIGKILLed JVM's does too.
 *
 * <p>Thread-safe.
 */
public final class PostgresServer {
  public static final String USER = "roundhouse";
  private static final Duration START_DEADLINE = Duration.ofSeconds(60);
  private static PostgresServer shared;

  private final Path root;
  private final int port;
  private final String password;
  private final List<String> watcher;
  private volatile Process process;
  private final AtomicInteger databases = new AtomicInteger();

  private PostgresServer(Path root, int port, String password, List<String> watcher) {
    this.root = root;
    this.port = port;
    this.password = password;
    this.watcher = watcher;
  }

  /**
   * A server of the caller's own, for a test that stops or restarts it ({@link #restart}); {@link #close}
   * stops it. Most tests share {@link #shared()}.
   */
  public static PostgresServer startPrivate() {
    return start();
  }

  /**
   * Stops the server as a crash would (an immediate shutdown: every session is cut) and starts it again on the
   * same port and data, returning once it accepts connections.
   */
  public void restart() {
    halt();
    launch();
    awaitReady();
  }

  /** Stops a server from {@link #startPrivate()} and deletes its data. */
  public void close() {
    stop();
  }

  /** The JVM's server, started on first use. */
  public static synchronized PostgresServer shared() {
    if (shared == null) {
      shared = start();
      Runtime.getRuntime().addShutdownHook(new Thread(shared::stop, "postgres-stop"));
    }
    return shared;
  }

  /**
   * Whether {@code process} is the shared server or one of its processes: it outlives each test on purpose
   * (a check for processes a test left behind leaves these alone).
   */
  public static synchronized boolean isSharedServer(ProcessHandle process) {
    if (shared == null) {
      return false;
    }
    ProcessHandle root = shared.process.toHandle();
    return process.pid() == root.pid() || root.descendants().anyMatch(p -> p.pid() == process.pid());
  }

  public int port() {
    return port;
  }

  public String password() {
    return password;
  }

  /** A new, empty database, as the URL a user would give {@code ROUNDHOUSE_DATABASE_URL} (password included). */
  public Database newDatabase() {
    String name = "rh_" + ProcessHandle.current().pid() + "_" + databases.incrementAndGet();
    try (Connection admin = connect("postgres"); Statement statement = admin.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("CREATE DATABASE " + name + " failed: " + e.getMessage(), e);
    }
    return new Database(this, name);
  }

  /** A JDBC connection to {@code database} as the cluster's superuser. */
  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, USER, password);
  }

  /** One database of the server. */
  public record Database(PostgresServer server, String name) {
    /** {@code postgresql://roundhouse:PASSWORD@127.0.0.1:PORT/NAME} */
    public String url() {
      return "postgresql://" + USER + ":" + server.password + "@127.0.0.1:" + server.port + "/" + name;
    }

    /** The URL without a password, which then comes from the environment. */
    public String urlWithoutPassword() {
      return "postgresql://" + USER + "@127.0.0.1:" + server.port + "/" + name;
    }

    public DatabaseUrl databaseUrl() {
      return DatabaseUrl.parse(url(), Map.of());
    }

    public Connection connect() throws SQLException {
      return server.connect(name);
    }
  }

  private static PostgresServer start() {
    Path bin = binaries();
    try {
      Path root = Files.createTempDirectory("roundhouse-pg-");
      String password = java.util.UUID.randomUUID().toString().replace("-", "");
      Path passwordFile = root.resolve("password");
      Files.writeString(passwordFile, password + "\n");
      boolean root0 = "root".equals(System.getProperty("user.name"));
      if (root0) {
        // initdb and postgres run as the package's user, who must own the folder and read the password file
        run(List.of("chown", "-R", "postgres:postgres", root.toString()), root);
      }
      Path data = root.resolve("data");
      List<String> initdb = asServerUser(root0, List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER,
          "--pwfile=" + passwordFile, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "-N"));
      run(initdb, root);
      int port = freePort();
      String postgres = String.join(" ", List.of(bin.resolve("postgres").toString(), "-D", data.toString(), "-p",
          Integer.toString(port), "-c", "listen_addresses=127.0.0.1", "-k", root.toString(), "-c", "fsync=off",
          "-c", "max_connections=200"));
      // The shell starts the server, then waits on its standard input (our pipe); end of file means this JVM is
      // gone or done: SIGQUIT is the server's immediate shutdown.
      String watch = postgres + " > " + root.resolve("server.log") + " 2>&1 & pid=$!; cat > /dev/null; kill -QUIT $pid; wait $pid";
      PostgresServer server = new PostgresServer(root, port, password, asServerUser(root0, List.of("sh", "-c", watch)));
      server.launch();
      server.awaitReady();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start PostgreSQL from " + bin, e);
    }
  }

  private void launch() {
    try {
      process = new ProcessBuilder(watcher)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start PostgreSQL", e);
    }
  }

  private void awaitReady() {
    try {
      Waits.until("PostgreSQL to accept connections on port " + port, START_DEADLINE, () -> {
        if (!process.isAlive()) {
          throw new IllegalStateException("PostgreSQL exited at start: " + log());
        }
        try (Connection c = connect("postgres")) {
          return true;
        } catch (SQLException e) {
          return false; // not listening yet
        }
      });
    } catch (AssertionError | RuntimeException e) {
      String log = log();
      stop();
      throw new IllegalStateException(e.getMessage() + "; server log: " + log, e);
    }
  }

  private String log() {
    try {
      return Files.readString(root.resolve("server.log"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no server log: " + e.getMessage() + ")";
    }
  }

  /** Stops the server (closing our end of the pipe is what stops it) and deletes its folder. */
  void stop() {
    halt();
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary folder; the next boot clears it
    }
  }

  /** Closing our end of the pipe makes the watcher shut the server down at once (SIGQUIT). */
  private void halt() {
    Process process = this.process;
    try {
      OutputStream in = process.getOutputStream();
      in.close();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (IOException | InterruptedException e) {
      process.destroyForcibly();
    }
  }

  private static List<String> asServerUser(boolean root, List<String> command) {
    if (!root) {
      return command;
    }
    List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  private static Path binaries() {
    String configured = System.getenv("ROUNDHOUSE_TEST_PG_BIN");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    Path debian = Path.of("/usr/lib/postgresql");
    if (Files.isDirectory(debian)) {
      try (Stream<Path> versions = Files.list(debian)) {
        var newest = versions
            .filter(v -> Files.isExecutable(v.resolve("bin/postgres")))
            .max(Comparator.comparingInt(v -> Integer.parseInt(v.getFileName().toString().replaceAll("\\D", "0"))));
        if (newest.isPresent()) {
          return newest.get().resolve("bin");
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    // As for every tool a test needs: skipped, saying why, on a developer's machine; a failure under CI.
    String message = "no PostgreSQL server found: install Debian's postgresql package"
        + " (apt-get install postgresql; .ci/run does) or set ROUNDHOUSE_TEST_PG_BIN to a folder holding initdb and postgres";
    if (System.getenv("CI") != null) {
      throw new IllegalStateException(message);
    }
    Assumptions.abort(message);
    throw new AssertionError("unreachable");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void run(List<String> command, Path dir) throws IOException {
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command.getFirst(), e);
    }
  }
}
