package dev.roundhouse.hub.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.events.EventStream;
import dev.roundhouse.hub.events.EventSink;
import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.store.Store;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jdbi.v3.core.Jdbi;

/**
 * Durable event append + publish, measured two ways in one run on the same machine and disk: group commit
 * (writes that arrive together share one transaction) against one transaction per event. Both keep
 * {@code synchronous=FULL} in WAL mode, so every append has reached the disk before its caller returns.
 * A live subscriber measures commit-to-delivery latency.
 *
 * <p>Run with {@code roundhouse bench}. Not thread-safe; one run at a time.
 */
public final class EventAppendBenchmark {

  /** One mode's figures. */
  public record Figures(
      String mode, int events, long commits, double seconds, double eventsPerSecond,
      double deliveryP50Millis, double deliveryP99Millis) {}

  /**
   * Both modes and their ratio; with a PostgreSQL database, its group commit too ({@code postgres}, else null)
   * and its events/s over SQLite's group commit ({@code postgresRatio}, else 0).
   */
  public record Result(Figures grouped, Figures perEvent, double ratio, Figures postgres, double postgresRatio) {}

  private final Path dir;
  private final int producers;
  private final int eventsPerProducer;

  private final DatabaseUrl postgres;
  /** 1, 2 and 3 workers on the PostgreSQL database, once measured. */
  private List<WorkersBenchmark.Figures> workers = List.of();

  public EventAppendBenchmark(Path dir, int producers, int eventsPerProducer) {
    this(dir, producers, eventsPerProducer, null);
  }

  /**
   * @param postgres a PostgreSQL database to measure group commit on too (in a schema of its own, made for
   *     the run and dropped after it), or null
   */
  public EventAppendBenchmark(Path dir, int producers, int eventsPerProducer, DatabaseUrl postgres) {
    this.dir = dir;
    this.producers = producers;
    this.eventsPerProducer = eventsPerProducer;
    this.postgres = postgres;
  }

  public Result run(PrintWriter out) throws Exception {
    out.printf(Locale.ROOT, "roundhouse bench: durable event append+publish, %d producers x %d events,"
        + " SQLite WAL synchronous=FULL, in %s%n", producers, eventsPerProducer, dir);
    // Warm the JIT on the same code paths first, so neither mode pays for compilation.
    measure("warm-up", Math.max(1, eventsPerProducer / 4), sqlite(dir.resolve("warmup.db"), 256));
    measure("warm-up", Math.max(1, eventsPerProducer / 20), sqlite(dir.resolve("warmup-single.db"), 1));
    Figures grouped = measure("group commit", eventsPerProducer, sqlite(dir.resolve("grouped.db"), 256));
    Figures perEvent = measure("one tx per event", eventsPerProducer, sqlite(dir.resolve("per-event.db"), 1));
    List<Figures> postgresRows = postgres == null ? List.of() : measurePostgres(out);
    Figures onPostgres = postgresRows.isEmpty() ? null : postgresRows.getFirst();
    out.printf(Locale.ROOT, "%-24s %8s %8s %9s %11s %22s %10s%n",
        "mode", "events", "commits", "seconds", "events/s", "commit-to-delivery p50", "p99");
    List<Figures> rows = new ArrayList<>(List.of(grouped, perEvent));
    rows.addAll(postgresRows);
    for (Figures f : rows) {
      out.printf(Locale.ROOT, "%-24s %8d %8d %9.3f %11.0f %19.3f ms %7.3f ms%n",
          f.mode(), f.events(), f.commits(), f.seconds(), f.eventsPerSecond(), f.deliveryP50Millis(), f.deliveryP99Millis());
    }
    double ratio = grouped.eventsPerSecond() / perEvent.eventsPerSecond();
    out.printf(Locale.ROOT, "ratio group commit / one tx per event: %.1fx (target >= 10x)%n", ratio);
    double postgresRatio = onPostgres == null ? 0 : onPostgres.eventsPerSecond() / grouped.eventsPerSecond();
    if (onPostgres != null) {
      out.printf(Locale.ROOT, "ratio postgresql / sqlite group commit: %.2fx (events/s)%n", postgresRatio);
      out.printf(Locale.ROOT, "ratio postgresql streamed / sqlite group commit: %.2fx (events/s)%n",
          postgresRows.get(1).eventsPerSecond() / grouped.eventsPerSecond());
    }
    if (!workers.isEmpty()) {
      out.printf(Locale.ROOT, "several workers on the PostgreSQL database (streamed appends spread over them; the viewer on"
          + " the first; turn claims: the begin-turn write)%n");
      out.printf(Locale.ROOT, "%-8s %8s %11s %22s %10s %17s %10s %14s%n",
          "workers", "events", "events/s", "commit-to-viewer p50", "p99", "turn claim p50", "p99", "/ sqlite ev/s");
      for (WorkersBenchmark.Figures f : workers) {
        out.printf(Locale.ROOT, "%-8d %8d %11.0f %19.3f ms %7.3f ms %14.3f ms %7.3f ms %13.2fx%n", f.workers(), f.events(),
            f.eventsPerSecond(), f.deliveryP50Millis(), f.deliveryP99Millis(), f.claimP50Millis(), f.claimP99Millis(),
            f.eventsPerSecond() / grouped.eventsPerSecond());
      }
    }
    out.flush();
    return new Result(grouped, perEvent, ratio, onPostgres, postgresRatio);
  }

  private static Function<EventSink, Store> sqlite(Path file, int maxBatch) {
    return sink -> Store.sqlite(file, Clock.systemUTC(), maxBatch, sink);
  }

  /** Group commit on PostgreSQL, in a schema made for the run and dropped after it. */
  private List<Figures> measurePostgres(PrintWriter out) throws Exception {
    String schema = "roundhouse_bench_" + ProcessHandle.current().pid();
    out.printf(Locale.ROOT, "and on PostgreSQL %s, schema %s%n", postgres.redacted(), schema);
    out.flush();
    Class.forName("org.postgresql.Driver");
    // a trusted local server may need no password (or even no user name): give the driver only what is set
    java.util.Properties credentials = new java.util.Properties();
    if (postgres.user() != null) {
      credentials.setProperty("user", postgres.user());
    }
    if (postgres.password() != null) {
      credentials.setProperty("password", postgres.password());
    }
    Jdbi admin = Jdbi.create(postgres.jdbcUrl(), credentials);
    admin.useHandle(h -> h.execute("CREATE SCHEMA " + schema));
    try {
      DatabaseUrl scratch = postgres.inSchema(schema);
      Function<EventSink, Store> open = sink -> Store.postgres(scratch, Clock.systemUTC(), 256, sink);
      measure("warm-up", Math.max(1, eventsPerProducer / 4), open);
      List<Figures> rows = List.of(measure("postgresql group commit", eventsPerProducer, open),
          measure("postgresql streamed", eventsPerProducer, open, true));
      workers = new ArrayList<>();
      WorkersBenchmark shared = new WorkersBenchmark(scratch, producers, eventsPerProducer);
      for (int n = 1; n <= 3; n++) {
        workers.add(shared.measure(n));
      }
      return rows;
    } finally {
      admin.useHandle(h -> h.execute("DROP SCHEMA " + schema + " CASCADE"));
    }
  }

  private Figures measure(String mode, int perProducer, Function<EventSink, Store> open) throws Exception {
    return measure(mode, perProducer, open, false);
  }

  /**
   * @param streamed through {@link Store#append} (a turn's streamed events: one statement, no savepoint) rather
   *     than a write that appends (every other change's events)
   */
  private Figures measure(String mode, int perProducer, Function<EventSink, Store> open, boolean streamed) throws Exception {
    EventBus bus = new EventBus();
    AtomicLong commits = new AtomicLong();
    int total = producers * perProducer;
    long[] latencies = new long[total];
    try (Store store = open.apply((events, at) -> {
          commits.incrementAndGet();
          bus.published(events, at);
        });
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      bus.attach(store);
      EventStream stream = bus.open(store.lastSeq(), total + 1);
      stream.next(Duration.ZERO); // caught up with the (empty) log: everything from here on is live
      Future<Integer> subscriber = threads.submit(() -> {
        int received = 0;
        while (received < total) {
          if (stream.next(Duration.ofSeconds(30)).isEmpty()) {
            break;
          }
          latencies[received++] = System.nanoTime() - stream.committedAtNanos();
        }
        return received;
      });
      ObjectNode payload = JsonNodeFactory.instance.objectNode().put("text", "assistant text delta of a typical size");
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> work = new ArrayList<>();
      for (int p = 0; p < producers; p++) {
        work.add(threads.submit(() -> {
          go.await();
          for (int i = 0; i < perProducer; i++) {
            EventDraft draft = new EventDraft("bench.event", Actor.SCHEDULER, null, null, payload);
            if (streamed) {
              store.append(draft);
            } else {
              store.write(w -> w.append(draft));
            }
          }
          return null;
        }));
      }
      long start = System.nanoTime();
      go.countDown();
      for (Future<?> f : work) {
        f.get();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      int received = subscriber.get();
      stream.close();
      if (received != total) {
        throw new IllegalStateException(mode + ": subscriber received " + received + " of " + total + " events");
      }
      long[] sorted = Arrays.copyOf(latencies, received);
      Arrays.sort(sorted);
      return new Figures(mode, total, commits.get(), seconds, total / seconds,
          percentile(sorted, 0.50) / 1e6, percentile(sorted, 0.99) / 1e6);
    }
  }

  /** The {@code q} quantile of {@code sorted} (nearest rank), or 0 when it is empty. */
  static double percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }
}
