package dev.roundhouse.hub.workers;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.PostgresServer;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.turns.RunnerSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hub worker SIGKILLed mid-turn while another worker shares its PostgreSQL database: once the dead worker's
 * lease runs out, the live worker ends its turn as interrupted (saying why), runs the task's queued message
 * itself, and no stored event is lost or repeated.
 */
class DeadWorkerTest {
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  /** The worker to be killed: a child JVM on the database in {@code ROUNDHOUSE_DATABASE_URL}, with a turn that holds. */
  public static final class ChildWorker {
    public static void main(String[] args) throws Exception {
      DatabaseUrl url = DatabaseUrl.parse(System.getenv("ROUNDHOUSE_DATABASE_URL"), System.getenv());
      Hub hub = Hub.open(HubConfig.forHome(Path.of(args[0])).withDatabaseUrl(url)
              .withRunner(RunnerSettings.DEFAULTS.withTurnLease(LEASE)),
          List.of(new TestDriver("w", false, (request, context) -> {
            context.emit(new TurnEvent.AssistantMessage("holding on the child"));
            Thread.currentThread().join(); // until killed
          })));
      HubServer server = HubServer.start(hub);
      System.out.println("ready " + server.url());
      System.out.flush();
      ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
      Thread.currentThread().join();
    }
  }

  @Test
  void aKilledWorkersTurnIsInterruptedAfterItsLeaseAndItsQueuedMessageRunsOnAnother() throws Exception {
    PostgresServer.Database database = PostgresServer.shared().newDatabase();
    List<String> ranHere = new CopyOnWriteArrayList<>();
    try (TestHub live = TestHub.withDrivers(c -> c.withDatabaseUrl(database.databaseUrl())
            .withRunner(RunnerSettings.DEFAULTS.withTurnLease(LEASE)),
        List.of(new TestDriver("w", false, (request, context) -> {
          ranHere.add(request.message());
          context.emit(new TurnEvent.AssistantMessage("ran here: " + request.message()));
        })));
        EventRecorder viewer = new EventRecorder(live.hub())) {
      String java = ProcessHandle.current().info().command().orElse("java");
      Path childHome = Files.createDirectories(dir.resolve("child"));
      ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ChildWorker.class.getName(),
          childHome.toString()).redirectError(dir.resolve("child.err").toFile());
      builder.environment().put("ROUNDHOUSE_DATABASE_URL", database.url());
      Process child = builder.start();
      long task;
      try {
        String ready = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(ready).as("the child's first line (its stderr is in %s)", dir.resolve("child.err")).startsWith("ready ");
        String token = Files.readString(childHome.resolve("token")).strip();
        try (HttpTestClient onChild = new HttpTestClient(ready.substring("ready ".length()), token)) {
          String repo = Files.createDirectories(dir.resolve("repo")).toString();
          onChild.op("project_create", map("name", "web", "path", repo, "default_agent", "w"));
          task = onChild.op("task_create", map("project", "web", "title", "long")).get("id").asLong();
          onChild.op("turn_start", map("task", task, "message", "hold"));
        }
        viewer.await("the child's turn holding, seen here", WAIT,
            e -> e.type().equals("turn.message") && e.data().toString().contains("holding on the child"));
        assertThat(live.http().op("turn_send", map("task", task, "message", "after")).get("delivery").asText()).isEqualTo("queued");
        child.destroyForcibly(); // SIGKILL, mid-turn
        assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
      } finally {
        child.destroyForcibly();
      }
      Event ended = viewer.await("the dead worker's turn ended", WAIT, e -> e.type().equals("turn.ended"));
      assertThat(ended.data().path("status").asText()).isEqualTo("interrupted");
      assertThat(ended.data().path("reason").asText()).contains("stopped renewing its lease");
      viewer.await("the queued message's reply, run here", WAIT,
          e -> e.type().equals("turn.message") && e.data().toString().contains("ran here: after"));
      assertThat(ranHere).containsExactly("after");
      List<Long> seen = viewer.seen().stream().map(Event::seq).filter(seq -> seq > 0).toList();
      try (EventRecorder replay = new EventRecorder(live.hub())) {
        List<Long> stored = replay.seen().stream().map(Event::seq).toList();
        assertThat(seen).as("every stored event once, in order").isEqualTo(stored.subList(0, seen.size()));
      }
      Map<String, Object> metrics = Map.of("scrape", live.hub().metrics().scrape());
      assertThat(metrics.get("scrape").toString()).containsPattern("roundhouse_turn_lease_takeovers_total\\{[^}]*\\} 1\\.0");
    }
  }
}
