package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.services.PortPlan;
import dev.roundhouse.services.hub.ServicesExtension;
import dev.roundhouse.services.hub.ServicesSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Dev services under load, in a throwaway in-process hub with its HTTP server (scratch home, deleted afterwards):
 *
 * <ul>
 *   <li><b>Logs.</b> A Python service writes {@code megabytes} of log lines as fast as it can, a line per write
 *       ({@code python3 -u}, as a logger that flushes each record does; pinned, since {@code PYTHONUNBUFFERED} in
 *       one machine's environment and not another's would change both sides of the ratio), with {@code viewers}
 *       {@code curl} processes following its log over SSE; against the same program writing to {@code /dev/null},
 *       before and after, in the same run. The program times its own writing (first line to last flush), so the
 *       ratio is the service's own throughput. Then the same writer through a bare relay to as many viewers
 *       ({@link RelayCeiling}): the ceiling any hub could reach on this machine. Also: this JVM's CPU per MB of log
 *       (the hub, its HTTP server and the SSE streams; the viewers are processes of their own) and its resident
 *       memory before, at its peak and after. First, a warm-up run of up to 40 MB through the hub with viewers of its own, not measured.
 *   <li><b>Terminal.</b> Keystroke to echo through {@code /api/x/pty} (a WebSocket on loopback, a PTY, {@code cat} in
 *       raw mode echoing each byte), against the same through {@code script} on a local PTY with pipes.
 * </ul>
 *
 * <p>Not thread-safe; one run at a time.
 */
final class ServicesBenchmark {
  private static final Duration WAIT = Duration.ofMinutes(5);
  /** The warm-up run writes this much, or the whole run's size when that is less. */
  private static final long WARMUP_BYTES = 40_000_000;
  private static final String READY_COMMAND = "stty raw -echo; echo RE''ADY; exec cat\n";
  private static final String LOG_WRITER = """
      import sys, time
      total = int(sys.argv[1])
      write = sys.stdout.write
      pad = "x" * 40
      written = 0
      line = 0
      start = time.perf_counter()
      while written < total:
          text = f"2026-12-02T03:00:00.{line % 1000:03d}Z INFO web.request id={line} GET /api/items 200 in 3 ms {pad}\\n"
          write(text)
          written += len(text)
          line += 1
      sys.stdout.flush()
      elapsed = time.perf_counter() - start
      with open(sys.argv[2], "w") as result:
          result.write(f"{written} {line} {elapsed}\\n")
      """;

  /** What the log writer reports of one run. */
  record Writing(long bytes, long lines, double seconds) {
    double megabytesPerSecond() {
      return bytes / 1e6 / seconds;
    }
  }

  /** Percentiles of a sample, in milliseconds. */
  record Spread(int count, double p50Millis, double p99Millis, double maxMillis) {
    static Spread of(long[] nanos) {
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      return new Spread(sorted.length, at(sorted, 0.50) / 1e6, at(sorted, 0.99) / 1e6, sorted[sorted.length - 1] / 1e6);
    }

    private static double at(long[] sorted, double fraction) {
      return sorted[Math.min(sorted.length - 1, (int) Math.ceil(fraction * sorted.length) - 1)];
    }
  }

  /**
   * The figures of one run.
   *
   * @param devNull the writer to /dev/null, before and after the hub's run
   * @param hub the writer as a hub service, with the viewers following
   * @param ratio the hub run's throughput over the mean of the /dev/null runs
   * @param relay the writer through a bare relay to as many viewers ({@link RelayCeiling}), and its ratio likewise
   * @param hubCpuMillisPerMegabyte this JVM's CPU time during the hub run, per MB written
   * @param rssBeforeMegabytes this JVM's resident memory before the hub run, after the peak and after the run
   * @param heapBeforeMegabytes the heap in use after a full collection, before the hub run and after it
   */
  record Figures(List<Writing> devNull, Writing hub, double ratio, Writing relay, double relayRatio, int viewers,
      double hubCpuMillisPerMegabyte, double rssBeforeMegabytes, double rssPeakMegabytes, double rssAfterMegabytes,
      double heapBeforeMegabytes, double heapAfterMegabytes, Spread terminal, Spread localPty) {}

  private final Path scratch;
  private final long bytes;
  private final int viewers;
  private final int keystrokes;

  ServicesBenchmark(Path scratch, long bytes, int viewers, int keystrokes) {
    this.scratch = scratch;
    this.bytes = bytes;
    this.viewers = viewers;
    this.keystrokes = keystrokes;
  }

  Figures run(PrintWriter out) throws Exception {
    Path home = Files.createDirectories(scratch.resolve("home"));
    Path folder = Files.createDirectories(scratch.resolve("project"));
    Files.writeString(folder.resolve("loggen.py"), LOG_WRITER);
    ServicesSettings settings = ServicesSettings.defaults().withPorts(new PortPlan(47_000, 20, 10));
    try (Hub hub = Hub.open(HubConfig.forHome(home).withPort(0), List.of(), List.of(new ServicesExtension(settings)));
        HubServer server = HubServer.start(hub)) {
      hub.operations().call("project_create", Actor.USER, new BoardApi.ProjectCreate("bench", folder.toString(), null, null),
          dev.roundhouse.hub.model.Project.class);
      long warmupBytes = Math.min(bytes, WARMUP_BYTES);
      for (String name : List.of("warmup", "loggen")) {
        hub.operations().invoke("service_define", Actor.USER, Json.tree(Map.of("project", "bench", "name", name,
            "argv", writer(name.equals("warmup") ? warmupBytes : bytes, folder.resolve(name + ".result")),
            "kind", "setup")));
      }
      print(out, "roundhouse bench services: %d MB of log lines by python3, %d viewers (curl, SSE follow); load average %s%n",
          bytes / 1_000_000, viewers, loadAverage());
      Writing warmup = warmUp(hub, server, home, folder);
      print(out, "  warm-up, not measured: %7.1f MB/s (%d lines in %.2f s) through the hub, %d viewers (the JIT compiling)%n",
          warmup.megabytesPerSecond(), warmup.lines(), warmup.seconds(), viewers);
      Writing before = devNull(folder);
      print(out, "  to /dev/null:          %7.1f MB/s (%d lines in %.2f s)%n", before.megabytesPerSecond(), before.lines(), before.seconds());
      Writing hubRun;
      long cpu;
      double[] rss = new double[3];
      double heapBefore = heapAfterCollection();
      List<Process> followers = follow(server, hub.token(), home, "loggen");
      try {
        rss[0] = rssMegabytes();
        AtomicLong peak = new AtomicLong((long) (rss[0] * 1e6));
        Thread sampler = Thread.ofVirtual().start(() -> sample(peak));
        long cpuStart = processCpuNanos();
        hubRun = runToTheEnd(hub, folder, "loggen");
        cpu = processCpuNanos() - cpuStart;
        sampler.interrupt();
        sampler.join();
        rss[1] = peak.get() / 1e6;
        rss[2] = rssMegabytes();
      } finally {
        stop(followers);
      }
      print(out, "  as a hub service:      %7.1f MB/s (%d lines in %.2f s), %d viewers following%n",
          hubRun.megabytesPerSecond(), hubRun.lines(), hubRun.seconds(), viewers);
      Path relayed = folder.resolve("relay.result");
      new RelayCeiling(writer(bytes, relayed), folder, viewers, WAIT).run();
      Writing relay = result(relayed);
      print(out, "  through a bare relay:  %7.1f MB/s (%d lines in %.2f s), %d viewers (the ceiling: the bytes as read, no log)%n",
          relay.megabytesPerSecond(), relay.lines(), relay.seconds(), viewers);
      Writing after = devNull(folder);
      print(out, "  to /dev/null again:    %7.1f MB/s (%d lines in %.2f s)%n", after.megabytesPerSecond(), after.lines(), after.seconds());
      double baseline = (before.megabytesPerSecond() + after.megabytesPerSecond()) / 2;
      double ratio = hubRun.megabytesPerSecond() / baseline;
      double relayRatio = relay.megabytesPerSecond() / baseline;
      double cpuPerMegabyte = cpu / 1e6 / (hubRun.bytes() / 1e6);
      print(out, "  ratio hub / dev-null:  %.2fx (target >= 0.8x); the bare relay's %.2fx is what any hub could reach here%n",
          ratio, relayRatio);
      print(out, "  hub CPU:               %.2f s, %.2f ms per MB (this JVM: hub, HTTP server, %d SSE streams)%n",
          cpu / 1e9, cpuPerMegabyte, viewers);
      double heapAfter = heapAfterCollection();
      print(out, "  hub RSS:               %.0f MB before, %.0f MB peak, %.0f MB after; heap after a full GC %.1f MB before, %.1f MB after%n",
          rss[0], rss[1], rss[2], heapBefore, heapAfter);

      Spread terminal = terminalEcho(server, hub.token());
      print(out, "  terminal echo (hub):   p50 %.3f ms, p99 %.3f ms, max %.3f ms (%d keystrokes over /api/x/pty)%n",
          terminal.p50Millis(), terminal.p99Millis(), terminal.maxMillis(), terminal.count());
      Spread local = localEcho(folder);
      print(out, "  terminal echo (local): p50 %.3f ms, p99 %.3f ms, max %.3f ms (script, a local PTY)%n",
          local.p50Millis(), local.p99Millis(), local.maxMillis());
      print(out, "  load average after: %s%n", loadAverage());
      return new Figures(List.of(before, after), hubRun, ratio, relay, relayRatio, viewers, cpuPerMegabyte, rss[0], rss[1],
          rss[2], heapBefore, heapAfter, terminal, local);
    }
  }

  /**
   * A first, shorter run of the same writer through the hub with as many viewers of its own, not measured: the JIT
   * compiles the pump, the log and the SSE path here (1.3 – 1.9 s of CPU inside the measured run without it), so the
   * figures are a long-running hub's, as {@code bench turns} measures after its warm-up round.
   */
  private Writing warmUp(Hub hub, HubServer server, Path home, Path folder) throws Exception {
    List<Process> followers = follow(server, hub.token(), home, "warmup");
    try {
      return runToTheEnd(hub, folder, "warmup");
    } finally {
      stop(followers);
    }
  }

  /** Starts the writer defined as {@code service} and waits for it to exit; what it measured of itself. */
  private static Writing runToTheEnd(Hub hub, Path folder, String service) throws IOException {
    JsonNode ended = hub.operations().invoke("service_start", Actor.USER,
        Json.tree(Map.of("project", "bench", "service", service, "wait_seconds", (int) WAIT.toSeconds())));
    if (!"exited".equals(ended.path("status").asText())) {
      throw new IllegalStateException("the log writer " + service + " did not exit cleanly: " + ended);
    }
    return result(folder.resolve(service + ".result"));
  }

  /** Ends the viewers and waits for each to exit. */
  static void stop(List<Process> followers) throws InterruptedException {
    for (Process follower : followers) {
      follower.destroy();
    }
    for (Process follower : followers) {
      follower.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private Writing devNull(Path folder) throws Exception {
    Path result = folder.resolve("devnull.result");
    Process writer = new ProcessBuilder(writer(bytes, result))
        .directory(folder.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    if (!writer.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS) || writer.exitValue() != 0) {
      writer.destroyForcibly();
      throw new IllegalStateException("the log writer to /dev/null did not finish cleanly");
    }
    return result(result);
  }

  /** The writer's command line: {@code size} bytes of lines, a line per write, its figures into {@code result}. */
  private static List<String> writer(long size, Path result) {
    return List.of("python3", "-u", "loggen.py", Long.toString(size), result.toString());
  }

  private static Writing result(Path file) throws IOException {
    String[] fields = Files.readString(file).strip().split(" ");
    return new Writing(Long.parseLong(fields[0]), Long.parseLong(fields[1]), Double.parseDouble(fields[2]));
  }

  /** Starts the viewers of {@code service} and waits until each has its response headers (it is following). */
  private List<Process> follow(HubServer server, String token, Path home, String service) throws Exception {
    Path header = home.resolve("bench-auth-header");
    Files.writeString(header, "Authorization: Bearer " + token + "\n");
    List<Process> followers = new ArrayList<>();
    List<Path> heads = new ArrayList<>();
    for (int i = 0; i < viewers; i++) {
      Path head = home.resolve(service + "-viewer-" + i + ".head");
      heads.add(head);
      followers.add(new ProcessBuilder("curl", "-sN", "-H", "@" + header, "-D", head.toString(), "-o", "/dev/null",
          server.url() + "/api/x/services/bench/" + service + "/logs?follow=1&tail=1")
          .redirectError(ProcessBuilder.Redirect.DISCARD).start());
    }
    long deadline = System.nanoTime() + WAIT.toNanos();
    for (Path head : heads) {
      while (!Files.exists(head) || !Files.readString(head).contains("\r\n\r\n")) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("viewer " + head.getFileName() + " never got its response headers");
        }
        Thread.sleep(10); // polling a file another process writes: the OS gives no event for it here
      }
    }
    return followers;
  }

  private static void sample(AtomicLong peak) {
    while (!Thread.currentThread().isInterrupted()) {
      peak.accumulateAndGet((long) (rssMegabytes() * 1e6), Math::max);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private Spread terminalEcho(HubServer server, String token) throws Exception {
    BlockingQueue<byte[]> output = new LinkedBlockingQueue<>();
    try (HttpClient client = HttpClient.newHttpClient()) {
      WebSocket socket = client.newWebSocketBuilder().header("Authorization", "Bearer " + token)
          .buildAsync(URI.create(server.url().replaceFirst("^http", "ws") + "/api/x/pty?project=bench"), new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
              byte[] bytes = new byte[data.remaining()];
              data.get(bytes);
              output.add(bytes);
              webSocket.request(1);
              return null;
            }
          }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
      try {
        socket.sendBinary(ByteBuffer.wrap(READY_COMMAND.getBytes(StandardCharsets.UTF_8)), true).join();
        awaitText(output, "READY");
        return measure(keystrokes, key -> socket.sendBinary(ByteBuffer.wrap(new byte[] {key}), true).join(), output);
      } finally {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
      }
    }
  }

  private Spread localEcho(Path folder) throws Exception {
    Process script = new ProcessBuilder("script", "-qfc", READY_COMMAND.strip(), "/dev/null").directory(folder.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    BlockingQueue<byte[]> output = new LinkedBlockingQueue<>();
    Thread reader = Thread.ofVirtual().start(() -> {
      byte[] buffer = new byte[4096];
      try (InputStream in = script.getInputStream()) {
        for (int read; (read = in.read(buffer)) >= 0; ) {
          output.add(Arrays.copyOf(buffer, read));
        }
      } catch (IOException e) {
        // the process ended
      }
    });
    try {
      OutputStream in = script.getOutputStream();
      awaitText(output, "READY");
      return measure(keystrokes, key -> {
        try {
          in.write(key);
          in.flush();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }, output);
    } finally {
      script.destroyForcibly();
      script.waitFor(10, TimeUnit.SECONDS);
      reader.join();
    }
  }

  private interface Keys {
    void send(byte key);
  }

  /** One keystroke at a time: sent, then waited for in the output; a tenth of them first as a warm-up. */
  private static Spread measure(int count, Keys keys, BlockingQueue<byte[]> output) throws InterruptedException {
    int warmUp = Math.max(1, count / 10);
    long[] nanos = new long[count];
    for (int i = -warmUp; i < count; i++) {
      byte key = (byte) ('a' + Math.floorMod(i, 26));
      long start = System.nanoTime();
      keys.send(key);
      while (true) {
        byte[] chunk = output.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        if (chunk == null) {
          throw new IllegalStateException("no echo of keystroke " + i + " within " + WAIT);
        }
        if (contains(chunk, key)) {
          break;
        }
      }
      if (i >= 0) {
        nanos[i] = System.nanoTime() - start;
      }
    }
    return Spread.of(nanos);
  }

  private static boolean contains(byte[] chunk, byte key) {
    for (byte value : chunk) {
      if (value == key) {
        return true;
      }
    }
    return false;
  }

  private static void awaitText(BlockingQueue<byte[]> output, String text) throws InterruptedException {
    StringBuilder seen = new StringBuilder();
    while (seen.indexOf(text) < 0) {
      byte[] chunk = output.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
      if (chunk == null) {
        throw new IllegalStateException("no '" + text + "' from the terminal within " + WAIT + "; it said: " + seen);
      }
      seen.append(new String(chunk, StandardCharsets.UTF_8));
    }
  }

  private static double heapAfterCollection() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1e6;
  }

  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** This process's resident set, from /proc/self/status, in MB; 0 where unknown. */
  static double rssMegabytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024 / 1e6;
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2] + " (" + Runtime.getRuntime().availableProcessors() + " cores)";
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static void print(PrintWriter out, String format, Object... args) {
    if (out != null) {
      out.printf(Locale.ROOT, format, args);
      out.flush();
    }
  }
}
