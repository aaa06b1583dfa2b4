package dev.roundhouse.hub.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.events.EventStream;
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

  /** Both modes and their ratio. */
  public record Result(Figures grouped, Figures perEvent, double ratio) {}

  private final Path dir;
  private final int producers;
  private final int eventsPerProducer;

  public EventAppendBenchmark(Path dir, int producers, int eventsPerProducer) {
    this.dir = dir;
    this.producers = producers;
    this.eventsPerProducer = eventsPerProducer;
  }

  public Result run(PrintWriter out) throws Exception {
    out.printf(Locale.ROOT, "roundhouse bench: durable event append+publish, %d producers x %d events,"
        + " SQLite WAL synchronous=FULL, in %s%n", producers, eventsPerProducer, dir);
    // Warm the JIT on the same code paths first, so neither mode pays for compilation.
    measure("warm-up", 256, Math.max(1, eventsPerProducer / 4), dir.resolve("warmup.db"));
    measure("warm-up", 1, Math.max(1, eventsPerProducer / 20), dir.resolve("warmup-single.db"));
    Figures grouped = measure("group commit", 256, eventsPerProducer, dir.resolve("grouped.db"));
    Figures perEvent = measure("one tx per event", 1, eventsPerProducer, dir.resolve("per-event.db"));
    out.printf(Locale.ROOT, "%-18s %8s %8s %9s %11s %22s %10s%n",
        "mode", "events", "commits", "seconds", "events/s", "commit-to-delivery p50", "p99");
    for (Figures f : List.of(grouped, perEvent)) {
      out.printf(Locale.ROOT, "%-18s %8d %8d %9.3f %11.0f %19.3f ms %7.3f ms%n",
          f.mode(), f.events(), f.commits(), f.seconds(), f.eventsPerSecond(), f.deliveryP50Millis(), f.deliveryP99Millis());
    }
    double ratio = grouped.eventsPerSecond() / perEvent.eventsPerSecond();
    out.printf(Locale.ROOT, "ratio group commit / one tx per event: %.1fx (target >= 10x)%n", ratio);
    out.flush();
    return new Result(grouped, perEvent, ratio);
  }

  private Figures measure(String mode, int maxBatch, int perProducer, Path file) throws Exception {
    EventBus bus = new EventBus();
    AtomicLong commits = new AtomicLong();
    int total = producers * perProducer;
    long[] latencies = new long[total];
    try (Store store = Store.sqlite(file, Clock.systemUTC(), maxBatch, (events, at) -> {
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
            store.write(w -> w.append(new EventDraft("bench.event", Actor.SCHEDULER, null, null, payload)));
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

  private static double percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }
}
