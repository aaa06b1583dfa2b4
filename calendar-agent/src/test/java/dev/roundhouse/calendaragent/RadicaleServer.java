package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Radicale 3 (the Debian package) per test on 127.0.0.1 and a free port: htpasswd plain auth for
 * {@value #USER}, owner_only rights (or a rights file: {@link #withRights}), a temporary storage folder, no web UI. Waits for its "Listening" log line
 * (with a deadline, no sleeping) and afterwards checks that neither it nor any child outlives the test.
 * Without {@code radicale} on the PATH the tests are skipped with a message, except under CI, where
 * {@code .ci/run} installs it and its absence fails.
 */
final class RadicaleServer implements BeforeEachCallback, AfterEachCallback {
  static final String USER = "alice";
  static final String PASSWORD = "s3cret-for-tests";
  private static final Duration START_DEADLINE = Duration.ofSeconds(30);

  private final String rights;
  private Path folder;
  private Process process;
  private int port;
  private HttpClient http;
  private final List<String> log = new ArrayList<>();

  /** With {@code owner_only} rights: {@value #USER} reads and writes her own collections only. */
  RadicaleServer() {
    this(null);
  }

  private RadicaleServer(String rights) {
    this.rights = rights;
  }

  /** With Radicale's {@code from_file} rights, {@code rights} being that file's text (sections of user, collection, permissions). */
  static RadicaleServer withRights(String rights) {
    return new RadicaleServer(rights);
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    if (!onPath("radicale")) {
      if (System.getenv("CI") != null) {
        throw new IllegalStateException("radicale is not installed; .ci/run installs it (apt-get install -y --no-install-recommends radicale)");
      }
      Assumptions.abort("radicale is not installed: apt-get install -y --no-install-recommends radicale");
    }
    folder = Files.createTempDirectory("radicale-test");
    Files.writeString(folder.resolve("users"), USER + ":" + PASSWORD + "\n");
    Files.createDirectories(folder.resolve("storage"));
    http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    IllegalStateException failure = null;
    for (int attempt = 0; attempt < 3 && process == null; attempt++) {
      try {
        start();
      } catch (IllegalStateException e) { // the free port was taken meanwhile: try another
        failure = e;
      }
    }
    if (process == null) {
      throw failure;
    }
  }

  private void start() throws IOException, InterruptedException {
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Path config = folder.resolve("config");
    Files.writeString(config, """
        [server]
        hosts = 127.0.0.1:%d
        [auth]
        type = htpasswd
        htpasswd_filename = %s
        htpasswd_encryption = plain
        [rights]
        %s
        [storage]
        filesystem_folder = %s
        [web]
        type = none
        [logging]
        level = info
        """.formatted(port, folder.resolve("users"), rightsConfig(), folder.resolve("storage")));
    Process started = new ProcessBuilder("radicale", "--config", config.toString()).redirectErrorStream(true).start();
    started.getOutputStream().close();
    CompletableFuture<Boolean> listening = new CompletableFuture<>();
    Thread.ofVirtual().name("radicale-log").start(() -> {
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          synchronized (log) {
            log.add(line);
          }
          if (line.contains("Listening on")) {
            listening.complete(true);
          }
        }
      } catch (IOException e) {
        // the process ended
      }
      listening.complete(false);
    });
    boolean up;
    try {
      up = listening.get(START_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      up = false;
    }
    if (!up) {
      stop(started);
      throw new IllegalStateException("radicale did not start listening on 127.0.0.1:" + port + ": " + log());
    }
    process = started;
  }

  private String rightsConfig() throws IOException {
    if (rights == null) {
      return "type = owner_only";
    }
    Path file = folder.resolve("rights");
    Files.writeString(file, rights);
    return "type = from_file\nfile = " + file;
  }

  /**
   * Puts a calendar collection straight into the storage folder, at {@code path} (such as
   * {@code alice/holidays}), with Radicale's properties file {@code props} (JSON): for a collection the
   * rights do not let {@value #USER} create.
   */
  void seedCalendar(String path, String props) throws IOException {
    Path collection = folder.resolve("storage").resolve("collection-root").resolve(path);
    Files.createDirectories(collection);
    Files.writeString(collection.resolve(".Radicale.props"), props);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    if (process != null) {
      List<ProcessHandle> children = process.descendants().toList();
      stop(process);
      assertThat(process.isAlive()).as("radicale still running").isFalse();
      assertThat(children).noneMatch(ProcessHandle::isAlive);
      process = null;
    }
    if (http != null) {
      http.close();
    }
    if (folder != null) {
      try (Stream<Path> files = Files.walk(folder)) {
        for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      }
    }
  }

  private static void stop(Process process) throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static boolean onPath(String command) {
    String path = System.getenv("PATH");
    return path != null && Stream.of(path.split(java.io.File.pathSeparator)).anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
  }

  String log() {
    synchronized (log) {
      return String.join("\n", log);
    }
  }

  URI url(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  /** Creates a calendar collection {@code /alice/<name>/} and returns its URL. */
  URI calendar(String name) {
    URI url = url("/" + USER + "/" + name + "/");
    Response created = request("MKCALENDAR", url, null, Map.of());
    assertThat(created.status()).as("MKCALENDAR " + url + ": " + created.body()).isEqualTo(201);
    return url;
  }

  record Response(int status, String body, String etag) {}

  /** A raw request as {@value #USER}, bypassing the code under test. */
  Response request(String method, URI url, String body, Map<String, String> headers) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(20))
        .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8)))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(builder::header);
    try {
      HttpResponse<String> response;
      try {
        response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
      } catch (IOException stale) {
        // a pooled connection Radicale (HTTP/1.0) had closed: the request never reached it; send it on a new one
        response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
      }
      return new Response(response.statusCode(), response.body(), response.headers().firstValue("ETag").orElse(null));
    } catch (IOException e) {
      throw new IllegalStateException(method + " " + url + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The calendar-data of every object in a collection, by a raw calendar-query REPORT. */
  List<String> objects(URI collection) {
    Response response = request("REPORT", collection, """
        <?xml version="1.0" encoding="utf-8"?>
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
          <D:prop><D:getetag/><C:calendar-data/></D:prop>
          <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/></C:comp-filter></C:filter>
        </C:calendar-query>""", Map.of("Depth", "1", "Content-Type", "application/xml"));
    assertThat(response.status()).isEqualTo(207);
    List<String> out = new ArrayList<>();
    String body = response.body();
    for (int i = body.indexOf("BEGIN:VCALENDAR"); i >= 0; i = body.indexOf("BEGIN:VCALENDAR", i + 1)) {
      out.add(body.substring(i, body.indexOf("END:VCALENDAR", i) + "END:VCALENDAR".length()).replace("&#13;", "\r"));
    }
    return out;
  }
}
