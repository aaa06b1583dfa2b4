package dev.roundhouse.hub.workers;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.PostgresServer;
import dev.roundhouse.hub.testing.SseTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.turns.RunnerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three hub workers in this JVM on one real PostgreSQL database, each with a home of its own (as on three
 * hosts): turns started at any worker run on it, exactly once; a message, an answer or a stop given at one
 * worker reaches the turn running on another; and every worker's event stream carries every worker's
 * events, in sequence order, with none missing or repeated.
 */
class SharedDatabaseWorkersTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private final List<TestHub> workers = new ArrayList<>();
  /** Which worker ran each message. */
  private final Map<String, List<String>> ranOn = new ConcurrentHashMap<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private String repo;

  @BeforeEach
  void start() throws Exception {
    PostgresServer.Database database = PostgresServer.shared().newDatabase();
    repo = Files.createDirectories(dir.resolve("repo")).toString();
    for (String name : List.of("a", "b", "c")) {
      workers.add(TestHub.withDrivers(c -> c.withDatabaseUrl(database.databaseUrl())
              .withRunner(RunnerSettings.DEFAULTS.withLingerTimeout(WAIT)),
          List.of(new TestDriver("w", false, (request, context) -> {
            ranOn.computeIfAbsent(request.message(), m -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(name);
            if (request.message().startsWith("ask")) {
              context.emit(new TurnEvent.AssistantMessage("answer was " + context.ask("ship it?", List.of("yes", "no")).orElse("none")));
            } else if (request.message().startsWith("hold")) {
              release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } else {
              context.emit(new TurnEvent.AssistantMessage("done " + request.message()));
            }
          }), new TestDriver("linger", true, (request, context) -> {
            ranOn.computeIfAbsent(request.message(), m -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(name);
            context.emit(new TurnEvent.AssistantMessage("first: " + request.message()));
            context.emit(new TurnEvent.Result("end_turn", "ok"));
            context.awaitNextMessage().ifPresent(next -> {
              ranOn.computeIfAbsent(next, m -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(name);
              context.emit(new TurnEvent.AssistantMessage("then: " + next));
            });
          }))));
    }
    a().http().op("project_create", map("name", "web", "path", repo, "default_agent", "w"));
  }

  @AfterEach
  void stop() {
    release.countDown();
    workers.reversed().forEach(TestHub::close);
  }

  private TestHub a() {
    return workers.get(0);
  }

  private TestHub b() {
    return workers.get(1);
  }

  private TestHub c() {
    return workers.get(2);
  }

  @Test
  void turnsStartedAcrossThreeWorkersRunOnceEachAndEveryWorkerStreamsEveryEventInOrder() throws Exception {
    List<EventRecorder> viewers = workers.stream().map(w -> new EventRecorder(w.hub())).toList();
    try (SseTestClient sseOnC = SseTestClient.open(c().http(), "/api/events?after=0")) {
      int tasks = 100;
      for (int i = 0; i < tasks; i++) {
        TestHub at = workers.get(i % 3);
        long task = at.http().op("task_create", map("project", "web", "title", "t" + i)).get("id").asLong();
        at.http().op("turn_start", map("task", task, "message", "m" + i));
      }
      EventRecorder onC = viewers.get(2);
      for (int i = 0; i < tasks; i++) {
        onC.await("turn " + i + " ended, seen at worker c", WAIT, e -> e.type().equals("turn.ended"));
      }
      for (int i = 0; i < tasks; i++) {
        assertThat(ranOn.get("m" + i)).as("where m%d ran", i).containsExactly(List.of("a", "b", "c").get(i % 3));
      }
      List<Long> stored;
      try (EventRecorder replay = new EventRecorder(c().hub())) {
        stored = replay.seen().stream().map(Event::seq).toList();
      }
      long last = stored.getLast();
      assertThat(stored).as("the log's numbers").containsExactlyElementsOf(
          java.util.stream.LongStream.rangeClosed(1, last).boxed().toList());
      for (EventRecorder viewer : viewers) {
        viewer.find("the last event", WAIT, e -> e.seq() == last);
        List<Long> seqs = viewer.seen().stream().map(Event::seq).filter(seq -> seq > 0).toList();
        assertThat(seqs).as("every event once, in order").containsExactlyElementsOf(stored);
      }
      List<Long> overSse = new ArrayList<>();
      while (overSse.isEmpty() || overSse.getLast() < last) {
        SseTestClient.SseEvent next = sseOnC.next(WAIT);
        if (next.id() != null) {
          overSse.add(Long.parseLong(next.id()));
        }
      }
      assertThat(overSse).as("the SSE viewer of worker c: every worker's events once, in order").containsExactlyElementsOf(stored);
    } finally {
      viewers.forEach(EventRecorder::close);
    }
  }

  @Test
  void aQuestionAnsweredAtOneWorkerResumesTheTurnParkedOnAnother() {
    long task = b().http().op("task_create", map("project", "web", "title", "ask")).get("id").asLong();
    try (EventRecorder onA = new EventRecorder(a().hub())) {
      b().http().op("turn_start", map("task", task, "message", "ask first"));
      Event opened = onA.await("the question, seen at worker a", WAIT, e -> e.type().equals("decision.opened"));
      long decision = opened.data().path("decision").path("id").asLong();
      a().http().op("decision_answer", map("decision", decision, "answer", "yes"));
      onA.await("the turn's reply, seen at worker a", WAIT,
          e -> e.type().equals("turn.message") && e.data().toString().contains("answer was yes"));
      assertThat(ranOn.get("ask first")).containsExactly("b");
    }
  }

  @Test
  void aMessageSentAtOneWorkerReachesTheSessionLingeringOnAnother() {
    long task = c().http().op("task_create", map("project", "web", "title", "linger", "agent", "linger")).get("id").asLong();
    try (EventRecorder onC = new EventRecorder(c().hub())) {
      c().http().op("turn_start", map("task", task, "message", "hello"));
      onC.await("the session lingering", WAIT, e -> e.type().equals("turn.lingering"));
      JsonNode sent = a().http().op("turn_send", map("task", task, "message", "more"));
      assertThat(sent.get("delivery").asText()).isEqualTo("lingering");
      onC.await("the lingering session's reply", WAIT,
          e -> e.type().equals("turn.message") && e.data().toString().contains("then: more"));
      assertThat(ranOn.get("more")).containsExactly("c");
    }
  }

  @Test
  void turnStopAtOneWorkerStopsTheTurnRunningOnAnother() {
    long task = a().http().op("task_create", map("project", "web", "title", "hold")).get("id").asLong();
    try (EventRecorder onB = new EventRecorder(b().hub())) {
      a().http().op("turn_start", map("task", task, "message", "hold on"));
      onB.await("the turn started, seen at worker b", WAIT, e -> e.type().equals("turn.started"));
      JsonNode stopped = b().http().op("turn_stop", map("task", task));
      assertThat(stopped.path("turn").path("status").asText()).isEqualTo("stopped");
      assertThat(onB.await("the stop request", WAIT, e -> e.type().equals("turn.stop_requested")).data().path("worker").asText())
          .isNotBlank();
    }
  }

}
