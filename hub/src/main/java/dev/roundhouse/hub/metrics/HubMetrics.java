package dev.roundhouse.hub.metrics;

import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.store.RunnerReads.TurnCount;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The hub's numbers for an operator, in Prometheus's text format ({@code GET /metrics}), through Micrometer:
 * events by type, store commits and their latency, turns by driver and status, queued messages, pending
 * decisions and how long closed ones waited, live event streams and the faces' sessions, and the JVM's
 * memory, GC, threads and CPU. Every name is in {@code docs/http.md#metrics}.
 *
 * <p>The registry is built at the first scrape, so a hub nobody scrapes pays nothing for it at start; what
 * must count from the start (events, commits) is kept in plain adders that function meters read.
 * Store-derived gauges (turns, queue, decisions) are read from the store at each scrape, outside any lock.
 *
 * <p>Thread-safe.
 */
public final class HubMetrics implements AutoCloseable {
  private final Store store;
  private final EventBus events;
  private final EventCounts counts = new EventCounts();
  private final Map<String, Gauged> gauges = new ConcurrentHashMap<>();
  private final Map<String, Gauged> counters = new ConcurrentHashMap<>();
  private final AtomicReference<Registry> registry = new AtomicReference<>();

  private record Gauged(String description, Supplier<Number> value) {}

  /** What a scrape reads from the store, in one snapshot. */
  private record StoreFigures(List<TurnCount> turns, int queued, int pending) {}

  /** The registry and what it holds that a scrape refreshes or close releases. */
  private record Registry(PrometheusMeterRegistry meters, MultiGauge turns, AtomicLong queued, AtomicLong pending,
      JvmGcMetrics gc, Set<String> registered) {
    /** Registers what {@code key} names the first time it is seen. */
    void once(String key, Consumer<PrometheusMeterRegistry> register) {
      if (registered.add(key)) {
        register.accept(meters);
      }
    }
  }

  public HubMetrics(Store store, EventBus events) {
    this.store = store;
    this.events = events;
    events.observe(counts);
  }

  /**
   * Adds a gauge that a face or module keeps (its open sessions), read at each scrape. {@code name} is a
   * Micrometer name ({@code roundhouse.mcp.sessions}); a second gauge of the same name replaces the first.
   */
  public void gauge(String name, String description, Supplier<Number> value) {
    gauges.put(name, new Gauged(description, value));
  }

  /**
   * Adds a counter that a part of the hub keeps (lease renewals), read at each scrape: {@code value} only ever
   * grows while the hub runs. A second counter of the same name replaces the first.
   */
  public void counter(String name, String description, Supplier<Number> value) {
    counters.put(name, new Gauged(description, value));
  }

  /** Everything, in the Prometheus text exposition format (version 0.0.4). */
  public String scrape() {
    Registry r = registry();
    StoreFigures figures = store.read(reader -> new StoreFigures(reader.runner().turnCounts(),
        reader.runner().queuedMessages(),
        reader.runner().pendingCounts().values().stream().mapToInt(Integer::intValue).sum()));
    r.turns().register(figures.turns().stream()
        .map(t -> MultiGauge.Row.of(Tags.of("driver", t.driver(), "status", t.status()), t.turns()))
        .toList(), true);
    r.queued().set(figures.queued());
    r.pending().set(figures.pending());
    // Each meter is registered once: Micrometer keeps the first registration of a name and warns at every later one.
    counts.durable.forEach((type, adder) -> r.once("events " + type, meters ->
        FunctionCounter.builder("roundhouse.events", adder, a -> a.sum())
            .description("Durable events stored and published since the hub started, by type")
            .tag("type", type).register(meters)));
    counts.decisionWaits.forEach((outcome, waits) -> r.once("decision wait " + outcome, meters ->
        FunctionTimer.builder("roundhouse.decision.wait", waits, w -> w.count.sum(), w -> w.nanos.sum(), TimeUnit.NANOSECONDS)
            .description("How long decisions waited before they were answered or expired")
            .tag("outcome", outcome).register(meters)));
    // Gauges and counters read the current supplier of their name at each scrape, so a second one replaces the first.
    gauges.forEach((name, gauged) -> r.once("gauge " + name, meters ->
        Gauge.builder(name, gauges, all -> current(all, name)).description(gauged.description()).strongReference(true)
            .register(meters)));
    counters.forEach((name, counted) -> r.once("counter " + name, meters ->
        FunctionCounter.builder(name, counters, all -> current(all, name)).description(counted.description())
            .register(meters)));
    return r.meters().scrape();
  }

  private static double current(Map<String, Gauged> all, String name) {
    Gauged gauged = all.get(name);
    return gauged == null ? Double.NaN : gauged.value().get().doubleValue();
  }

  private Registry registry() {
    Registry existing = registry.get();
    if (existing != null) {
      return existing;
    }
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    meters.config().commonTags("backend", store.backend());
    FunctionCounter.builder("roundhouse.events.transient", counts.transientEvents, a -> a.sum())
        .description("Transient events (text deltas) published since the hub started").register(meters);
    FunctionCounter.builder("roundhouse.store.commits", store, s -> s.stats().commits())
        .description("Store transactions committed (each holds one or more writes)").register(meters);
    FunctionCounter.builder("roundhouse.store.writes", store, s -> s.stats().writes())
        .description("Writes committed, grouped into those transactions").register(meters);
    FunctionTimer.builder("roundhouse.store.commit", store, s -> s.stats().commits(),
            s -> s.stats().commitNanos(), TimeUnit.NANOSECONDS)
        .description("Store transactions, begin to durable commit").register(meters);
    Gauge.builder("roundhouse.event.streams", events, EventBus::openStreams)
        .description("Live event streams open (SSE viewers, MCP and LSP subscriptions)").register(meters);
    AtomicLong queued = new AtomicLong();
    AtomicLong pending = new AtomicLong();
    Gauge.builder("roundhouse.turn.queue", queued, AtomicLong::get)
        .description("Messages waiting in the tasks' turn queues").register(meters);
    Gauge.builder("roundhouse.decisions.pending", pending, AtomicLong::get)
        .description("Decisions waiting for a person").register(meters);
    MultiGauge turns = MultiGauge.builder("roundhouse.turns").description("Turns by driver and status").register(meters);
    new JvmMemoryMetrics().bindTo(meters);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(meters);
    new JvmThreadMetrics().bindTo(meters);
    new ClassLoaderMetrics().bindTo(meters);
    new ProcessorMetrics().bindTo(meters);
    new UptimeMetrics().bindTo(meters);
    Registry built = new Registry(meters, turns, queued, pending, gc, ConcurrentHashMap.newKeySet());
    if (registry.compareAndSet(null, built)) {
      return built;
    }
    gc.close(); // another scrape built one first
    meters.close();
    return registry.get();
  }

  @Override
  public void close() {
    events.unobserve(counts);
    Registry r = registry.getAndSet(null);
    if (r != null) {
      r.gc().close();
      r.meters().close();
    }
  }
}
