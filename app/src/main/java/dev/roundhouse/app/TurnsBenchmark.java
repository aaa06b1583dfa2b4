package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Many script-driver turns at once through a real hub and a real SSE viewer: events per second, the
 * latency from a driver's {@code emit} to the viewer reading that event, and the process's peak RSS.
 *
 * <p>Not thread-safe; one run at a time.
 */
final class TurnsBenchmark {
  /** The figures of one run. */
  record Figures(int turns, long events, double seconds, double eventsPerSecond, double p50Millis, double p99Millis,
      double maxMillis, long peakRssBytes, DiskSyncProbe.Figures diskSync, DiskSyncProbe.Figures diskSyncAfter,
      WriterFigures writer) {}

  /**
   * What the store's single writer did in the measured round, from the hub's own metrics: commits, writes, and the
   * time from each group's begin to its durable commit.
   */
  record WriterFigures(long commits, long writes, double commitSeconds) {
    static WriterFigures of(String scrape) {
      return new WriterFigures((long) metric(scrape, "roundhouse_store_commits_total"),
          (long) metric(scrape, "roundhouse_store_writes_total"), metric(scrape, "roundhouse_store_commit_seconds_sum"));
    }

    WriterFigures since(WriterFigures before) {
      return new WriterFigures(commits - before.commits, writes - before.writes, commitSeconds - before.commitSeconds);
    }

    private static double metric(String scrape, String name) {
      for (String line : scrape.split("\n")) {
        if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
          return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
      throw new IllegalStateException("the hub's metrics have no " + name);
    }
  }

  private final Path home;
  private final int turns;
  private final int eventsPerTurn;
  private final int ratePerTurn;
  private final int warmupEventsPerTurn;
  private final Supplier<AgentDriver> scriptDriver;

  /**
   * @param warmupEventsPerTurn events each turn emits in a first round that is not measured (0: none), so the
   *     figures are the warm hub's, as a long-running hub is, and not the JIT compiler's
   * @param ratePerTurn events per second each turn emits, paced open-loop (each event has its slot, whatever
   *     the previous one waited); 0 emits as fast as the hub takes them
   */
  TurnsBenchmark(Path home, int turns, int eventsPerTurn, int warmupEventsPerTurn, int ratePerTurn,
      Supplier<AgentDriver> scriptDriver) {
    this.home = home;
    this.warmupEventsPerTurn = warmupEventsPerTurn;
    this.turns = turns;
    this.eventsPerTurn = eventsPerTurn;
    this.ratePerTurn = ratePerTurn;
    this.scriptDriver = scriptDriver;
  }

  Figures run(PrintWriter out) throws Exception {
    out.printf(Locale.ROOT, "roundhouse bench turns: %d concurrent script-driver turns x %d events, %s, SSE viewer on loopback%n",
        turns, eventsPerTurn, ratePerTurn == 0 ? "as fast as the hub takes them" : ratePerTurn + " events/s per turn (" + (long) ratePerTurn * turns + " events/s offered)");
    out.flush();
    Files.createDirectories(home);
    DiskSyncProbe.Figures disk = DiskSyncProbe.measure(home, 1000);
    out.printf(Locale.ROOT, "baseline, this disk: fdatasync of a 4 KiB append p50 %.2f ms, p99 %.2f ms, max %.2f ms"
        + " (every stored event waits for one commit's sync)%n", disk.p50Millis(), disk.p99Millis(), disk.maxMillis());
    out.flush();
    Map<Long, ConcurrentLinkedQueue<Long>> emitted = new ConcurrentHashMap<>();
    TimedDriver driver = new TimedDriver(scriptDriver.get(), emitted, ratePerTurn == 0 ? 0 : 1_000_000_000L / ratePerTurn);
    AtomicReference<Round> current = new AtomicReference<>();
    RssSampler rss = new RssSampler();
    // A generous viewer buffer: the benchmark measures latency, not the slow-viewer cut-off.
    try (Hub hub = Hub.open(HubConfig.forHome(home).withStreamBuffer(1 << 16), List.of(driver));
        HubServer server = HubServer.start(hub)) {
      Files.createDirectories(home.resolve("repo"));
      invoke(hub, "project_create", Map.of("name", "bench", "path", home.resolve("repo").toString(), "default_agent", driver.id()));
      long[] tasks = new long[turns];
      for (int i = 0; i < turns; i++) {
        tasks[i] = invoke(hub, "task_create", Map.of("project", "bench", "title", "turn " + i)).get("id").asLong();
        emitted.put(tasks[i], new ConcurrentLinkedQueue<>());
      }
      CountDownLatch subscribed = new CountDownLatch(1);
      Thread viewer = Thread.ofVirtual().start(() -> view(server.url(), hub.token(), emitted, current, subscribed));
      subscribed.await(10, TimeUnit.SECONDS);
      rss.start();
      if (warmupEventsPerTurn > 0) {
        Round warmup = round(hub, tasks, warmupEventsPerTurn, current);
        out.printf(Locale.ROOT, "warm-up, not measured (the JIT compiling, the first collections): %d events,"
            + " p50 %.2f ms, p99 %.2f ms%n", warmup.count(), warmup.percentileMillis(0.50), warmup.percentileMillis(0.99));
        out.flush();
      }
      WriterFigures before = WriterFigures.of(hub.metrics().scrape());
      Round measured = round(hub, tasks, eventsPerTurn, current);
      WriterFigures writer = WriterFigures.of(hub.metrics().scrape()).since(before);
      rss.stop();
      viewer.interrupt(); // the socket closes with the server below
      DiskSyncProbe.Figures after = DiskSyncProbe.measure(home, 1000);
      Figures figures = new Figures(turns, measured.count(), measured.seconds, measured.count() / measured.seconds,
          measured.percentileMillis(0.50), measured.percentileMillis(0.99), measured.percentileMillis(1.0), rss.peak(), disk,
          after, writer);
      print(out, figures);
      return figures;
    }
  }

  private static void print(PrintWriter out, Figures figures) {
    out.printf(Locale.ROOT, "%d message events in %.2f s: %.0f events/s%n", figures.events(), figures.seconds(),
        figures.eventsPerSecond());
    out.printf(Locale.ROOT, "emit -> SSE viewer latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 < 5 ms)%n",
        figures.p50Millis(), figures.p99Millis(), figures.maxMillis());
    out.printf(Locale.ROOT, "peak RSS of this process (hub and viewer): %d MB (target < 300 MB)%n", figures.peakRssBytes() >> 20);
    // The writer and the disk, so a run's latency can be told from the machine's: the disk's sync tail moves from
    // minute to minute on a shared machine, and every event waits for one commit's sync.
    WriterFigures writer = figures.writer();
    double commits = Math.max(1, writer.commits());
    out.printf(Locale.ROOT, "store writer, measured round: %d commits of %.1f writes on average, %.2f ms each from begin"
        + " to durable commit, inside a commit %.0f%% of the round%n", writer.commits(), writer.writes() / commits,
        writer.commitSeconds() * 1000 / commits, 100 * writer.commitSeconds() / figures.seconds());
    DiskSyncProbe.Figures after = figures.diskSyncAfter();
    out.printf(Locale.ROOT, "this disk again, after the run: fdatasync of a 4 KiB append p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
        after.p50Millis(), after.p99Millis(), after.maxMillis());
    out.flush();
  }

  /** Runs one turn per task, each emitting {@code events} messages, and waits until the viewer saw them all end. */
  private Round round(Hub hub, long[] tasks, int events, AtomicReference<Round> current) throws InterruptedException {
    Round round = new Round(tasks.length, events);
    current.set(round);
    String script = Json.write(Map.of("steps", List.of(Map.of("repeat", events, "steps", List.of(Map.of("message", "m"))))));
    long start = System.nanoTime();
    for (long task : tasks) {
      invoke(hub, "turn_start", Map.of("task", task, "message", script));
    }
    if (!round.ended.await(10, TimeUnit.MINUTES)) {
      throw new IllegalStateException("the turns did not end within 10 minutes");
    }
    round.seconds = (System.nanoTime() - start) / 1e9;
    return round;
  }

  /** One round's latencies, filled by the viewer. Thread-safe: the viewer writes, the runner reads after {@link #ended}. */
  private static final class Round {
    final long[] latencies;
    final AtomicInteger received = new AtomicInteger();
    final CountDownLatch ended;
    double seconds;
    private long[] sorted;

    Round(int turns, int eventsPerTurn) {
      this.latencies = new long[turns * eventsPerTurn];
      this.ended = new CountDownLatch(turns);
    }

    void record(long nanos) {
      int slot = received.getAndIncrement();
      if (slot < latencies.length) {
        latencies[slot] = nanos;
      }
    }

    int count() {
      return Math.min(received.get(), latencies.length);
    }

    double percentileMillis(double q) {
      if (sorted == null) {
        sorted = Arrays.copyOf(latencies, count());
        Arrays.sort(sorted);
      }
      return percentile(sorted, q) / 1e6;
    }
  }

  private static JsonNode invoke(Hub hub, String op, Map<String, Object> input) {
    return hub.operations().invoke(op, Actor.USER, Json.tree(input));
  }

  /**
   * Reads the live event stream and matches each turn.message to its emit time, per task, in order. A
   * plain socket speaking HTTP/1.0 (so the stream is not chunked), as lean as a viewer can be, so the
   * figures are the hub's and not an HTTP client library's.
   */
  private void view(String url, String token, Map<Long, ConcurrentLinkedQueue<Long>> emitted,
      AtomicReference<Round> current, CountDownLatch subscribed) {
    URI uri = URI.create(url);
    try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
      socket.getOutputStream().write(("GET /api/events HTTP/1.0\r\nHost: " + uri.getHost() + "\r\nAuthorization: Bearer "
          + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      BufferedReader lines = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1 << 16);
      String type = null;
      for (String line; (line = lines.readLine()) != null; ) {
        if (line.startsWith(": roundhouse")) {
          subscribed.countDown();
        } else if (line.startsWith("event: ")) {
          type = line.substring(7);
        } else if (line.startsWith("data: ") && type != null) {
          if (type.equals("turn.message")) {
            long now = System.nanoTime();
            Long at = emitted.get(taskOf(line)).poll();
            if (at != null) {
              current.get().record(now - at);
            }
          } else if (type.equals("turn.ended")) {
            current.get().ended.countDown();
          }
          type = null;
        }
      }
    } catch (IOException e) {
      // the run is over
    }
  }

  private static long taskOf(String dataLine) {
    int at = dataLine.indexOf("\"task_id\":");
    int end = at + "\"task_id\":".length();
    int stop = end;
    while (stop < dataLine.length() && Character.isDigit(dataLine.charAt(stop))) {
      stop++;
    }
    return Long.parseLong(dataLine.substring(end, stop));
  }

  private static double percentile(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }

  /** Wraps the script driver so every emitted assistant message is timed. Thread-safe. */
  private static final class TimedDriver implements AgentDriver {
    private final AgentDriver delegate;
    private final Map<Long, ConcurrentLinkedQueue<Long>> emitted;
    private final long intervalNanos;

    /** @param intervalNanos time between a turn's messages, or 0 for no pacing */
    TimedDriver(AgentDriver delegate, Map<Long, ConcurrentLinkedQueue<Long>> emitted, long intervalNanos) {
      this.delegate = delegate;
      this.emitted = emitted;
      this.intervalNanos = intervalNanos;
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public DriverCapabilities capabilities() {
      return delegate.capabilities();
    }

    @Override
    public void run(TurnRequest request, TurnContext context) throws Exception {
      ConcurrentLinkedQueue<Long> times = emitted.get(request.taskId());
      // Each turn's schedule starts at its own phase within the interval, so the turns do not all emit in
      // the same instant (agents are not synchronised; aligned schedules would measure a burst of 50).
      long phase = intervalNanos == 0 ? 0 : Math.floorMod(request.taskId(), (long) emitted.size()) * intervalNanos / emitted.size();
      long[] nextSlot = {System.nanoTime() + phase}; // only this turn's thread emits messages
      delegate.run(request, new TurnContext() {
        @Override
        public void emit(TurnEvent event) {
          if (event instanceof TurnEvent.AssistantMessage) {
            if (intervalNanos > 0) {
              for (long wait; (wait = nextSlot[0] - System.nanoTime()) > 0; ) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
              }
              nextSlot[0] += intervalNanos;
            }
            times.add(System.nanoTime());
          }
          context.emit(event);
        }

        @Override
        public PermissionVerdict requestPermission(PermissionRequest permission) {
          return context.requestPermission(permission);
        }

        @Override
        public Optional<String> ask(String question, List<String> options) {
          return context.ask(question, options);
        }

        @Override
        public Optional<String> awaitNextMessage() {
          return context.awaitNextMessage();
        }

        @Override
        public boolean isStopped() {
          return context.isStopped();
        }

        @Override
        public void onStop(Runnable action) {
          context.onStop(action);
        }

        @Override
        public List<dev.roundhouse.hub.ops.OperationDescriptor> tools() {
          return context.tools();
        }

        @Override
        public JsonNode callTool(String name, JsonNode input) {
          return context.callTool(name, input);
        }

        @Override
        public java.util.Optional<dev.roundhouse.hub.spi.AgentEndpoint> agentEndpoint() {
          return context.agentEndpoint();
        }

        @Override
        public java.time.Clock clock() {
          return context.clock();
        }
      });
    }
  }

  /** Samples VmRSS from /proc/self/status every 50 ms. Thread-safe. */
  private static final class RssSampler {
    private final AtomicLong peak = new AtomicLong();
    private volatile Thread thread;

    void start() {
      thread = Thread.ofPlatform().daemon(true).name("rss-sampler").start(() -> {
        while (!Thread.currentThread().isInterrupted()) {
          peak.accumulateAndGet(current(), Math::max);
          try {
            Thread.sleep(50);
          } catch (InterruptedException e) {
            return;
          }
        }
      });
    }

    void stop() throws InterruptedException {
      thread.interrupt();
      thread.join();
      peak.accumulateAndGet(current(), Math::max);
    }

    long peak() {
      return peak.get();
    }

    private static long current() {
      try {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
          if (line.startsWith("VmRSS:")) {
            return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
          }
        }
      } catch (IOException | NumberFormatException e) {
        return 0;
      }
      return 0;
    }
  }
}
