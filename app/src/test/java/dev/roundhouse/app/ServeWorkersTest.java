package dev.roundhouse.app;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.PostgresServer;
import dev.roundhouse.hub.testing.SseTestClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code roundhouse serve} processes, each with a home of its own, on one real PostgreSQL database, the
 * script driver in each (issue 19's test): 99 turns started across them each run once, and an SSE viewer of the
 * third sees every worker's events once, in sequence; then the first is SIGKILLed mid-turn, and once its lease
 * runs out another worker ends that turn as interrupted and runs the message queued behind it, still with no
 * event lost or repeated on the viewer.
 */
@ExtendWith(NoLeakedProcesses.class)
class ServeWorkersTest {
  private static final Duration START = Duration.ofSeconds(120);
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int TASKS = 99;

  @TempDir Path dir;

  @Test
  void threeServeProcessesShareOneQueueAndAWorkerKilledMidTurnIsTakenOver() throws Exception {
    PostgresServer.Database database = PostgresServer.shared().newDatabase();
    String repo = Files.createDirectories(dir.resolve("repo")).toString();
    List<RoundhouseProcess> workers = new ArrayList<>();
    List<HttpTestClient> http = new ArrayList<>();
    try {
      for (String name : List.of("a", "b", "c")) {
        Path home = dir.resolve(name);
        ProcessBuilder serve = RoundhouseProcess.builder(home, List.of(), "serve", "--port", "0");
        serve.environment().put("ROUNDHOUSE_DATABASE_URL", database.url());
        serve.environment().put("ROUNDHOUSE_TURN_LEASE", "2s");
        RoundhouseProcess worker = RoundhouseProcess.start(serve);
        workers.add(worker);
        Matcher listening = McpStdioTest.listening(worker.awaitErrLine(l -> McpStdioTest.listening(l).matches(), START));
        assertThat(listening.matches()).isTrue();
        http.add(new HttpTestClient(listening.group(1), Files.readString(home.resolve("token")).strip()));
      }
      http.get(0).op("project_create", map("name", "web", "path", repo, "default_agent", "script"));
      try (SseTestClient viewer = SseTestClient.open(http.get(2), "/api/events?after=0")) {
        Map<Long, Integer> startedAt = new HashMap<>();
        for (int i = 0; i < TASKS; i++) {
          HttpTestClient at = http.get(i % 3);
          long task = at.op("task_create", map("project", "web", "title", "t" + i)).get("id").asLong();
          at.op("turn_start", map("task", task, "message", "turn " + i));
          startedAt.put(task, i % 3);
        }
        List<Long> seen = new ArrayList<>();
        int ended = 0;
        while (ended < TASKS) {
          SseTestClient.SseEvent event = next(viewer, seen);
          if (event.event().equals("turn.ended")) {
            assertThat(event.json().path("data").path("status").asText()).as("%s", event.data()).isEqualTo("completed");
            ended++;
          }
        }
        for (long task : startedAt.keySet()) {
          JsonNode turns = http.get(1).op("turn_list", map("task", task)).path("turns");
          assertThat(turns).as("the turns of task %d", task).hasSize(1);
        }

        long held = http.get(0).op("task_create", map("project", "web", "title", "held")).get("id").asLong();
        http.get(0).op("turn_start", map("task", held, "message", "{\"steps\": [{\"message\": \"holding on a\"}, {\"hang\": true}]}"));
        awaitEvent(viewer, seen, "turn.message", held, "holding on a");
        assertThat(http.get(1).op("turn_send", map("task", held, "message", "after the kill")).get("delivery").asText()).isEqualTo("queued");
        workers.get(0).kill();
        assertThat(workers.get(0).awaitExit(WAIT)).isEqualTo(137);
        JsonNode interrupted = awaitEvent(viewer, seen, "turn.ended", held, "interrupted");
        assertThat(interrupted.path("data").path("reason").asText()).contains("stopped renewing its lease");
        awaitEvent(viewer, seen, "turn.message", held, "You said: after the kill");
        awaitEvent(viewer, seen, "turn.ended", held, "completed");
        assertThat(seen).as("the viewer's sequence numbers: every event once, in order")
            .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(seen.getFirst(), seen.getLast()).boxed().toList());
      }
    } finally {
      http.forEach(HttpTestClient::close);
      for (RoundhouseProcess worker : workers) {
        if (worker.isAlive()) {
          worker.terminate();
          assertThat(worker.awaitExit(WAIT)).isZero();
        }
        worker.close();
      }
    }
  }

  /** The next stored event on the viewer, its sequence number noted. */
  private static SseTestClient.SseEvent next(SseTestClient viewer, List<Long> seen) {
    SseTestClient.SseEvent event = viewer.next(WAIT);
    if (event.id() != null) {
      seen.add(Long.parseLong(event.id()));
    }
    return event;
  }

  /** Reads on until an event of {@code type} for {@code task} whose data mentions {@code text}. */
  private static JsonNode awaitEvent(SseTestClient viewer, List<Long> seen, String type, long task, String text) {
    while (true) {
      SseTestClient.SseEvent event = next(viewer, seen);
      JsonNode json = event.id() == null ? null : event.json();
      if (json != null && event.event().equals(type) && json.path("task_id").asLong() == task && json.path("data").toString().contains(text)) {
        return json;
      }
    }
  }
}
