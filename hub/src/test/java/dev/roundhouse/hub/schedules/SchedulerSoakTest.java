package dev.roundhouse.hub.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.InProcessHub;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.TestDriver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * 10,000 scheduler ticks against a hub in a child process that is killed with SIGKILL at random moments
 * (right after a tick was sent, so mid-tick, mid-claim or mid-turn) and restarted, while the clock jumps
 * forward and back: in the end every due firing ran exactly once (one run, one task, one turn each).
 */
class SchedulerSoakTest {
  private static final int TICKS = 10_000;
  private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
  private static final Map<String, String> SCHEDULES = Map.of(
      "two-hourly", "FREQ=HOURLY;INTERVAL=2",
      "cron", "15 */5 * * *");

  @TempDir
  Path home;

  /** The child: a hub whose clock and ticks come from stdin ("tick <epoch millis>"), acknowledged on stdout. */
  public static final class Child {
    public static void main(String[] args) throws IOException {
      ManualClock clock = new ManualClock(Instant.ofEpochMilli(Long.parseLong(args[1])));
      HubConfig config = HubConfig.forHome(Path.of(args[0])).withClock(clock)
          .withScheduler(SchedulerSettings.DEFAULTS.withEnabled(false).withGrace(Duration.ofDays(1)));
      try (InProcessHub hub = Hub.open(config, List.of(new TestDriver("soak", false, (request, context) -> {})))) {
        if (hub.board().projects().isEmpty()) {
          Path repo = Path.of(args[0]).resolve("repo");
          Files.createDirectories(repo);
          call(hub, "project_create", Map.of("name", "soak", "path", repo.toString(), "default_agent", "soak"));
          SCHEDULES.forEach((name, rule) -> call(hub, "schedule_create",
              Map.of("project", "soak", "name", name, "prompt", "tick", "recurrence", rule, "zone", "Europe/Berlin", "overlap", "allow")));
        }
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          Instant at = Instant.ofEpochMilli(Long.parseLong(line.substring("tick ".length())));
          clock.set(at);
          hub.scheduler().tick(at);
          System.out.println("ack " + at.toEpochMilli() + " " + hub.scheduler().status().openRuns());
          System.out.flush();
        }
      }
    }

    private static JsonNode call(Hub hub, String op, Map<String, Object> input) {
      return hub.operations().invoke(op, Actor.USER, Json.tree(input));
    }
  }

  /** A running child and the lines it printed. */
  private static final class Running implements AutoCloseable {
    final Process process;
    final Writer in;
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    Running(Path home, Instant clock) throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Child.class.getName(),
          home.toString(), String.valueOf(clock.toEpochMilli()))
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
      in = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
      Thread.ofVirtual().start(() -> {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line = out.readLine(); line != null; line = out.readLine()) {
            lines.add(line);
          }
        } catch (IOException e) {
          // the child died: the test sees no more lines
        }
      });
      expect("ready");
    }

    void send(Instant at) throws IOException {
      in.write("tick " + at.toEpochMilli() + "\n");
      in.flush();
    }

    /** The child's next line that starts with {@code prefix}, within a minute. */
    String expect(String prefix) {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      try {
        while (System.nanoTime() < deadline) {
          String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
          if (line != null && line.startsWith(prefix)) {
            return line;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new AssertionError("the child did not print '" + prefix + "' within a minute (alive: " + process.isAlive() + ")");
    }

    void kill() throws InterruptedException {
      process.destroyForcibly(); // SIGKILL
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the killed child exits").isTrue();
    }

    @Override
    public void close() throws InterruptedException {
      kill();
    }
  }

  @Test
  void everyDueFiringRunsExactlyOnceThroughKillsAndClockJumps() throws Exception {
    long seed = new Random().nextLong();
    LoggerFactory.getLogger(SchedulerSoakTest.class).info("scheduler soak seed {}", seed);
    Random random = new Random(seed);
    Instant clock = START;
    Instant latest = START;
    int kills = 0;
    Running child = new Running(home, clock);
    try {
      for (int tick = 0; tick < TICKS; tick++) {
        double move = random.nextDouble();
        if (move < 0.03) {
          clock = clock.minus(Duration.ofMinutes(random.nextInt(180))); // the clock jumps back
        } else if (move < 0.05) {
          clock = clock.plus(Duration.ofMinutes(60 + random.nextInt(300))); // and forward, past firings
        } else {
          clock = clock.plus(Duration.ofSeconds(random.nextInt(8 * 60)));
        }
        latest = clock.isAfter(latest) ? clock : latest;
        child.send(clock);
        if (random.nextDouble() < 0.001 || tick % 2500 == 1250) {
          child.kill(); // at a random moment of the tick just sent
          kills++;
          child = new Running(home, clock);
        } else {
          child.expect("ack " + clock.toEpochMilli());
        }
      }
      // Settle: tick at the latest time until every run has ended (each tick follows the turns that ended).
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (true) {
        child.send(latest);
        String ack = child.expect("ack " + latest.toEpochMilli());
        if (ack.endsWith(" 0")) {
          break;
        }
        assertThat(System.nanoTime()).as("runs still open after two minutes: %s", ack).isLessThan(deadline);
      }
    } finally {
      child.close();
    }
    assertThat(kills).isGreaterThanOrEqualTo(4);

    HubConfig config = HubConfig.forHome(home).withScheduler(SchedulerSettings.DEFAULTS.withEnabled(false));
    try (InProcessHub hub = Hub.open(config, List.of(new TestDriver("soak", false, (request, context) -> {})))) {
      Set<Long> tasks = new HashSet<>();
      int total = 0;
      for (var entry : SCHEDULES.entrySet()) {
        JsonNode schedule = hub.operations().invoke("schedule_get", Actor.USER, Json.tree(Map.of("schedule", entry.getKey())))
            .get("schedule");
        Recurrence recurrence = Recurrence.parse(entry.getValue(), ZoneId.of("Europe/Berlin"),
            Instant.parse(schedule.get("created_at").asText()));
        List<Instant> due = new ArrayList<>();
        for (Instant at = recurrence.next(START).orElseThrow(); !at.isAfter(latest); at = recurrence.next(at).orElseThrow()) {
          due.add(at);
        }
        JsonNode runs = hub.operations().invoke("schedule_runs", Actor.USER,
            Json.tree(Map.of("schedule", entry.getKey(), "limit", 1000))).get("runs");
        List<Instant> ran = new ArrayList<>();
        for (JsonNode run : runs) {
          ran.add(Instant.parse(run.get("scheduled_at").asText()));
          assertThat(run.get("status").asText()).as("run %s", run).isIn("done", "failed");
          long task = run.get("task_id").asLong();
          assertThat(tasks.add(task)).as("task %d belongs to one run only", task).isTrue();
          JsonNode turns = hub.operations().invoke("turn_list", Actor.USER, Json.tree(Map.of("task", task))).get("turns");
          assertThat(turns).as("turns of the task of run %s", run).hasSize(1);
        }
        assertThat(ran).as("the firings of %s that ran", entry.getKey()).containsExactlyInAnyOrderElementsOf(due);
        total += due.size();
      }
      assertThat(total).isGreaterThan(400);
      int minted = 0;
      for (int offset = 0; ; offset += 1000) {
        JsonNode page = hub.operations().invoke("task_list", Actor.USER,
            Json.tree(Map.of("project", "soak", "limit", 1000, "offset", offset)));
        minted += page.get("tasks").size();
        if (!page.get("has_more").asBoolean()) {
          break;
        }
      }
      assertThat(minted).as("no task minted without its run").isEqualTo(tasks.size());
    }
  }
}
