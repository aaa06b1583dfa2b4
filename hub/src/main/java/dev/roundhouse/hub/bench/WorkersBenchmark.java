package dev.roundhouse.hub.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.DatabaseUrl;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.events.EventSink;
import dev.roundhouse.hub.events.EventStream;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Several hub workers' stores on one PostgreSQL database, in this JVM (so one clock times a commit on one
 * worker and its delivery on another): producers spread over the workers append events, a viewer on the
 * first worker's bus receives every worker's events, and each event's commit-to-viewer time is measured from
 * its own worker's commit. Then turn claims: {@link #CLAIMERS} claimers spread over the workers each begin and
 * end turns of a task of their own, the write a {@code turn_start} makes, and its latency is measured.
 *
 * <p>Not thread-safe; one run at a time.
 */
final class WorkersBenchmark {
  /** One worker count's figures. */
  record Figures(int workers, int events, double eventsPerSecond, double deliveryP50Millis, double deliveryP99Millis,
      double claimP50Millis, double claimP99Millis) {}

  /** Turn claims are measured with this many claimers spread over the workers (a busy team, not a flood). */
  private static final int CLAIMERS = 8;
  private static final int CLAIMS_PER_CLAIMER = 100;

  private final DatabaseUrl database;
  private final int producers;
  private final int perProducer;

  WorkersBenchmark(DatabaseUrl database, int producers, int perProducer) {
    this.database = database;
    this.producers = producers;
    this.perProducer = perProducer;
  }

  Figures measure(int workers) throws Exception {
    ConcurrentHashMap<Long, Long> committedAt = new ConcurrentHashMap<>();
    List<Store> stores = new ArrayList<>();
    List<EventBus> buses = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < workers; i++) {
        EventBus bus = new EventBus();
        stores.add(Store.postgres(database, Clock.systemUTC(), 256, new EventSink() {
          @Override
          public void published(List<Event> events, long at) {
            events.forEach(e -> committedAt.put(e.seq(), at));
            bus.published(events, at);
          }

          @Override
          public void othersCommitted() {
            bus.othersCommitted();
          }
        }));
        bus.attach(stores.getLast());
        buses.add(bus);
      }
      int total = producers * perProducer;
      long[] latencies = new long[total];
      EventStream viewer = buses.getFirst().open(stores.getFirst().lastSeq(), total + 1);
      viewer.next(Duration.ZERO);
      Future<Integer> received = threads.submit(() -> {
        int n = 0;
        while (n < total) {
          Event next = viewer.next(Duration.ofSeconds(30)).orElse(null);
          if (next == null) {
            break;
          }
          if (next.type().equals("bench.event")) {
            Long at = committedAt.get(next.seq());
            latencies[n++] = at == null ? 0 : System.nanoTime() - at;
          }
        }
        return n;
      });
      ObjectNode payload = JsonNodeFactory.instance.objectNode().put("text", "assistant text delta of a typical size");
      long start = System.nanoTime();
      run(threads, producers, p -> {
        Store store = stores.get(p % workers);
        for (int i = 0; i < perProducer; i++) {
          store.append(new EventDraft("bench.event", Actor.SCHEDULER, null, null, payload));
        }
      });
      double seconds = (System.nanoTime() - start) / 1e9;
      int got = received.get();
      viewer.close();
      if (got != total) {
        throw new IllegalStateException(workers + " workers: the viewer received " + got + " of " + total + " events");
      }
      Arrays.sort(latencies);
      long[] claims = claims(threads, stores);
      return new Figures(workers, total, total / seconds, millis(latencies, 0.50), millis(latencies, 0.99),
          millis(claims, 0.50), millis(claims, 0.99));
    } finally {
      buses.forEach(EventBus::close);
      stores.forEach(Store::close);
    }
  }

  /** Each claimer begins and ends turns of its own task through its worker; the begin's latency, sorted. */
  private long[] claims(ExecutorService threads, List<Store> stores) throws Exception {
    long project = stores.getFirst().write(w ->
        w.insertProject(new Project(0, "bench-" + System.nanoTime(), "/tmp", null, null, w.now(), w.now())).id());
    long[] tasks = new long[CLAIMERS];
    for (int p = 0; p < CLAIMERS; p++) {
      String title = "claims " + p;
      tasks[p] = stores.getFirst().write(w -> w.insertTask(new Task(0, project, title, null, TaskStatus.TODO, Priority.NORMAL,
          List.of(), List.of(), false, null, null, null, false, Actor.SCHEDULER, w.now(), w.now())).id());
    }
    long[] latencies = new long[CLAIMERS * CLAIMS_PER_CLAIMER];
    run(threads, CLAIMERS, p -> {
      Store store = stores.get(p % stores.size());
      for (int i = 0; i < CLAIMS_PER_CLAIMER; i++) {
        long began = System.nanoTime();
        Turn turn = store.write(w -> {
          if (w.runner().activeTurn(tasks[p]).isPresent()) {
            throw new IllegalStateException("task " + tasks[p] + " already has a running turn");
          }
          Turn t = w.runner().insertTurn(tasks[p], 1, "bench", false, Actor.SCHEDULER, w.now());
          w.runner().leaseTurn(t.id(), "worker-" + (p % stores.size()), w.now().plusSeconds(30));
          return t;
        });
        latencies[p * CLAIMS_PER_CLAIMER + i] = System.nanoTime() - began;
        store.write(w -> {
          w.runner().endTurn(turn.id(), TurnStatus.COMPLETED, null, w.now());
          return null;
        });
      }
    });
    Arrays.sort(latencies);
    return latencies;
  }

  private interface Producer {
    void run(int index) throws Exception;
  }

  private static void run(ExecutorService threads, int producers, Producer producer) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> work = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      int index = p;
      work.add(threads.submit(() -> {
        go.await();
        producer.run(index);
        return null;
      }));
    }
    go.countDown();
    for (Future<?> f : work) {
      f.get();
    }
  }

  private static double millis(long[] sortedNanos, double q) {
    return EventAppendBenchmark.percentile(sortedNanos, q) / 1e6;
  }
}
