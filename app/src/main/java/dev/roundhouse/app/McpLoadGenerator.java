package dev.roundhouse.app;

import dev.roundhouse.hub.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Closed-loop {@code tools/call} load over MCP Streamable HTTP: {@code sessions} virtual threads, each with a
 * keep-alive socket of its own, {@code initialize} once (plus {@code notifications/initialized}), then call
 * one tool back to back, first for the warm-up, then for the measured window. Only calls that started and
 * ended inside the window count, and only when the answer is the expected one (text content equal to the
 * expected JSON, not an error); anything else is counted as a failure, with the first one kept for the
 * report. The client is HTTP/1.1 over a plain socket (no HTTP client library in the way), and it is the same
 * code for every server it is pointed at.
 *
 * <p>Not thread-safe: one {@link #run} at a time; inside a run each session's state is confined to its thread.
 */
final class McpLoadGenerator {
  /** Where to send the load, and what the tool must answer. */
  record Target(String name, URI endpoint, Map<String, String> headers, String tool, String arguments, String expectedText) {
    /** The expected text as it appears inside the answer: a JSON string, quotes included. */
    String expectedTextJson() {
      return Json.write(expectedText);
    }
  }

  /** What one run measured. Latencies are of successful calls in the window, in nanoseconds, sorted. */
  record Result(String name, int sessions, double seconds, long calls, long failures, long[] latencies, String firstFailure,
      long thisProcessCpuNanos, long serverProcessCpuNanos) {
    double callsPerSecond() {
      return calls / seconds;
    }

    double percentileMillis(double q) {
      return latencies.length == 0 ? 0 : latencies[Math.min(latencies.length - 1, (int) Math.ceil(q * latencies.length) - 1)] / 1e6;
    }
  }

  private static final String PROTOCOL_VERSION = "2025-06-18";

  private final int sessions;
  private final Duration warmUp;
  private final Duration measured;

  McpLoadGenerator(int sessions, Duration warmUp, Duration measured) {
    this.sessions = sessions;
    this.warmUp = warmUp;
    this.measured = measured;
  }

  /**
   * Runs the load against {@code target}. {@code serverCpu} reads the CPU time the server's process has used
   * so far (nanoseconds; this process's own when the server runs in it); it is read at the window's start and
   * end, as is this process's.
   */
  Result run(Target target, java.util.function.LongSupplier serverCpu) throws InterruptedException {
    ConcurrentLinkedQueue<long[]> latencies = new ConcurrentLinkedQueue<>();
    AtomicLong failures = new AtomicLong();
    AtomicReference<String> firstFailure = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(sessions);
    CountDownLatch go = new CountDownLatch(1);
    long[] window = new long[2];
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < sessions; i++) {
      int number = i;
      threads.add(Thread.ofVirtual().name("mcp-load-" + target.name() + "-" + i).start(() -> {
        Session session = null;
        try {
          session = new Session(target, number);
          session.initialize();
        } catch (IOException | RuntimeException e) {
          failures.incrementAndGet();
          firstFailure.compareAndSet(null, "session " + number + " could not initialize: " + e.getMessage());
        } finally {
          ready.countDown();
        }
        try {
          go.await();
          if (session != null) {
            latencies.add(session.callUntil(window[0], window[1], failures, firstFailure));
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          if (session != null) {
            session.close();
          }
        }
      }));
    }
    ready.await();
    long start = System.nanoTime();
    window[0] = start + warmUp.toNanos();
    window[1] = window[0] + measured.toNanos();
    go.countDown(); // publishes window to the sessions
    parkUntil(window[0]);
    long ownStart = processCpuNanos();
    long serverStart = serverCpu.getAsLong();
    parkUntil(window[1]);
    long own = processCpuNanos() - ownStart;
    long server = serverCpu.getAsLong() - serverStart;
    for (Thread thread : threads) {
      thread.join();
    }
    long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    return new Result(target.name(), sessions, measured.toNanos() / 1e9, all.length, failures.get(), all, firstFailure.get(), own, server);
  }

  private static void parkUntil(long nanoTime) {
    for (long left; (left = nanoTime - System.nanoTime()) > 0; ) {
      java.util.concurrent.locks.LockSupport.parkNanos(left);
    }
  }

  /** The CPU time this JVM has used, in nanoseconds. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** The CPU time (user and system) process {@code pid} has used, from /proc, in nanoseconds; 0 where unknown. */
  static long processCpuNanos(long pid) {
    try {
      String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
      return ticks * 10_000_000L; // USER_HZ is 100 on Linux
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** One MCP session on one keep-alive connection. Confined to its thread. */
  private static final class Session {
    private final Target target;
    private final int number;
    private final Socket socket;
    private final OutputStream out;
    private final Wire in;
    private final String expectedTextJson;
    private String sessionId;
    private long nextId = 1;

    Session(Target target, int number) throws IOException {
      this.target = target;
      this.number = number;
      this.socket = new Socket();
      socket.setTcpNoDelay(true);
      socket.connect(new InetSocketAddress(target.endpoint().getHost(), target.endpoint().getPort()), 10_000);
      socket.setSoTimeout(60_000);
      this.out = socket.getOutputStream();
      this.in = new Wire(socket.getInputStream());
      this.expectedTextJson = target.expectedTextJson();
    }

    void initialize() throws IOException {
      Response init = post("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
          + PROTOCOL_VERSION + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench-" + number + "\",\"version\":\"1\"}}}");
      if (init.status != 200 || init.headers.get("mcp-session-id") == null) {
        throw new IOException("initialize answered HTTP " + init.status + ": " + init.body());
      }
      sessionId = init.headers.get("mcp-session-id");
      Response initialized = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      if (initialized.status != 202 && initialized.status != 200) {
        throw new IOException("notifications/initialized answered HTTP " + initialized.status + ": " + initialized.body());
      }
    }

    /** Calls back to back until {@code end}; returns the latencies of the good calls inside [start, end]. */
    long[] callUntil(long start, long end, AtomicLong failures, AtomicReference<String> firstFailure) {
      long[] latencies = new long[1024];
      int count = 0;
      while (true) {
        long before = System.nanoTime();
        if (before >= end) {
          break;
        }
        String failure;
        boolean broken = false;
        try {
          long id = nextId++;
          Response response = post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
              + target.tool() + "\",\"arguments\":" + target.arguments() + "}}");
          failure = check(response, id);
        } catch (IOException | RuntimeException e) {
          failure = e.toString();
          broken = true; // the connection is in an unknown state: this session stops
        }
        long after = System.nanoTime();
        if (failure != null && (broken || (before >= start && after <= end))) {
          failures.incrementAndGet();
          firstFailure.compareAndSet(null, target.name() + " session " + number + ": " + failure);
        }
        if (broken) {
          break;
        }
        if (failure != null || before < start || after > end) {
          continue; // a failure, the warm-up, or a call that straddles the window's end
        }
        if (count == latencies.length) {
          latencies = Arrays.copyOf(latencies, count * 2);
        }
        latencies[count++] = after - before;
      }
      return Arrays.copyOf(latencies, count);
    }

    /**
     * Null when the answer is the tool's expected result to request {@code id}; otherwise what was wrong. The
     * message is checked as text, without a JSON parser (the load generator must stay cheap: it shares the
     * machine with the server it measures): it must be the answer to {@code id}, not an error, and carry the
     * expected JSON as its text content (JSON-escaped, as both servers write it) and a structured content.
     */
    private String check(Response response, long id) {
      if (response.status != 200) {
        return "HTTP " + response.status + ": " + response.body();
      }
      String message = response.message();
      if (!message.contains("\"id\":" + id + ",") && !message.contains("\"id\":" + id + "}")) {
        return "an answer to another request: " + message;
      }
      if (message.contains("\"isError\":true") || message.contains("\"error\":")) {
        return "an error: " + message;
      }
      if (!message.contains(expectedTextJson)) {
        return "unexpected content: " + message;
      }
      if (!message.contains("\"structuredContent\":{")) {
        return "no structured content: " + message;
      }
      return null;
    }

    private Response post(String json) throws IOException {
      byte[] body = json.getBytes(StandardCharsets.UTF_8);
      StringBuilder head = new StringBuilder(256)
          .append("POST ").append(target.endpoint().getRawPath()).append(" HTTP/1.1\r\n")
          .append("Host: ").append(target.endpoint().getHost()).append(':').append(target.endpoint().getPort()).append("\r\n")
          .append("Content-Type: application/json\r\n")
          .append("Accept: application/json, text/event-stream\r\n")
          .append("Content-Length: ").append(body.length).append("\r\n");
      target.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
      if (sessionId != null) {
        head.append("Mcp-Session-Id: ").append(sessionId).append("\r\n")
            .append("MCP-Protocol-Version: ").append(PROTOCOL_VERSION).append("\r\n");
      }
      head.append("\r\n");
      byte[] start = head.toString().getBytes(StandardCharsets.US_ASCII);
      byte[] request = Arrays.copyOf(start, start.length + body.length);
      System.arraycopy(body, 0, request, start.length, body.length);
      out.write(request); // one write, one segment
      out.flush();
      return Response.read(in);
    }

    void close() {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }

  /** An HTTP/1.1 response, read whole (Content-Length, chunked, or up to the end of the connection). */
  private record Response(int status, Map<String, String> headers, byte[] bytes) {
    static Response read(Wire in) throws IOException {
      String statusLine = in.line();
      if (statusLine == null) {
        throw new IOException("the server closed the connection");
      }
      int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
      Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      for (String header; (header = in.line()) != null && !header.isEmpty(); ) {
        int colon = header.indexOf(':');
        if (colon > 0) {
          headers.put(header.substring(0, colon).strip(), header.substring(colon + 1).strip());
        }
      }
      byte[] body;
      if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
        ByteArrayOutputStream all = new ByteArrayOutputStream(1024);
        while (true) {
          String size = in.line();
          if (size == null) {
            throw new IOException("the connection ended inside a chunked body");
          }
          int semicolon = size.indexOf(';');
          int length = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).strip(), 16);
          if (length == 0) {
            for (String trailer = in.line(); trailer != null && !trailer.isEmpty(); trailer = in.line()) {
              // trailers are not used
            }
            break;
          }
          in.copy(length, all);
          in.line();
        }
        body = all.toByteArray();
      } else if (headers.containsKey("content-length")) {
        ByteArrayOutputStream all = new ByteArrayOutputStream(1024);
        in.copy(Integer.parseInt(headers.get("content-length")), all);
        body = all.toByteArray();
      } else if (status == 202 || status == 204 || status == 304) {
        body = new byte[0];
      } else {
        body = in.rest();
      }
      return new Response(status, headers, body);
    }

    String body() {
      return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The JSON-RPC message: the body, or the data of the first event of an SSE body. */
    String message() {
      String text = body();
      if (!headers.getOrDefault("content-type", "").startsWith("text/event-stream")) {
        return text;
      }
      StringBuilder data = new StringBuilder(text.length());
      for (String line : text.split("\n")) {
        String stripped = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        if (stripped.startsWith("data:")) {
          data.append(stripped, stripped.startsWith("data: ") ? 6 : 5, stripped.length());
        } else if (stripped.isEmpty() && !data.isEmpty()) {
          break;
        }
      }
      return data.toString();
    }
  }

  /** A buffered reader of a socket's bytes with ASCII lines, without locking per byte. Confined to one thread. */
  private static final class Wire {
    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;

    Wire(InputStream in) {
      this.in = in;
    }

    private boolean fill() throws IOException {
      if (position < limit) {
        return true;
      }
      int n = in.read(buffer, 0, buffer.length);
      position = 0;
      limit = Math.max(n, 0);
      return n > 0;
    }

    /** The next line without its CR LF, or null at the end of the stream. */
    String line() throws IOException {
      StringBuilder line = null;
      while (fill()) {
        for (int i = position; i < limit; i++) {
          if (buffer[i] == '\n') {
            int end = i > position && buffer[i - 1] == '\r' ? i - 1 : i;
            String part = new String(buffer, position, end - position, StandardCharsets.ISO_8859_1);
            position = i + 1;
            if (line == null) {
              return part;
            }
            line.append(part);
            int length = line.length();
            return length > 0 && line.charAt(length - 1) == '\r' ? line.substring(0, length - 1) : line.toString();
          }
        }
        if (line == null) {
          line = new StringBuilder(128);
        }
        line.append(new String(buffer, position, limit - position, StandardCharsets.ISO_8859_1));
        position = limit;
      }
      return line == null ? null : line.toString();
    }

    void copy(int count, ByteArrayOutputStream to) throws IOException {
      int left = count;
      while (left > 0) {
        if (!fill()) {
          throw new IOException("the connection ended " + left + " bytes before the end of the body");
        }
        int n = Math.min(left, limit - position);
        to.write(buffer, position, n);
        position += n;
        left -= n;
      }
    }

    byte[] rest() throws IOException {
      ByteArrayOutputStream all = new ByteArrayOutputStream(1024);
      while (fill()) {
        all.write(buffer, position, limit - position);
        position = limit;
      }
      return all.toByteArray();
    }
  }

  static String describe(Result result) {
    return String.format(Locale.ROOT, "%-10s %9.0f calls/s  p50 %6.2f ms  p99 %6.2f ms  (%d calls in %.1f s, %d failed)",
        result.name(), result.callsPerSecond(), result.percentileMillis(0.50), result.percentileMillis(0.99),
        result.calls(), result.seconds(), result.failures());
  }

  /** CPU per successful call: the server's process, and this one (the load generator, and the server if it runs here). */
  static String describeCpu(Result result) {
    double calls = Math.max(1, result.calls());
    return String.format(Locale.ROOT, "%-10s cpu per call: server process %4.0f us, this process %4.0f us (%.2f and %.2f cores busy)",
        result.name(), result.serverProcessCpuNanos() / calls / 1e3, result.thisProcessCpuNanos() / calls / 1e3,
        result.serverProcessCpuNanos() / 1e9 / result.seconds(), result.thisProcessCpuNanos() / 1e9 / result.seconds());
  }
}
