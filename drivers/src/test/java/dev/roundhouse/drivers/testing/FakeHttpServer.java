package dev.roundhouse.drivers.testing;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What every fake model API shares, so that each fake keeps only its vendor's wire format: a real HTTP
 * server on 127.0.0.1 and a free port, a record of the requests it serves, a queue of scripted {@link
 * Reply replies} given out in order, and the ways to answer one ({@link Exchange}): a whole body (an error,
 * say), a server-sent event stream ({@link SseWriter}), a reply held open until the server closes, a
 * dropped connection.
 *
 * <p>A fake says which requests its API serves ({@link #serves}), what any other request gets ({@link
 * #notServed}, recorded apart in {@link #unexpected()}) and what a served request with nothing scripted gets
 * ({@link #unscripted}): an error in the vendor's own shape, so that a test that scripted too little fails
 * loudly.
 *
 * <p>Thread-safe. Each request is answered on its own virtual thread while the test scripts replies and
 * reads requests. One lock guards the recorded requests; it is never held while a reply runs, and waiting
 * for a request is on its condition, with a deadline. The script is a concurrent queue. Closing releases
 * every held or paced reply, stops the server and fails if a request thread is still running 10 s later.
 * One server per test, closed after it.
 */
public abstract class FakeHttpServer implements AutoCloseable {
  /** How long a held reply waits for the server to close, should a test never close it. */
  private static final Duration HOLD_LIMIT = Duration.ofMinutes(2);

  /** One scripted answer to one request. */
  @FunctionalInterface
  public interface Reply {
    void answer(Exchange exchange) throws IOException;
  }

  private final String name;
  private final String basePath;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final Queue<Reply> script = new ConcurrentLinkedQueue<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  @GuardedBy("lock")
  private final List<RecordedRequest> requests = new ArrayList<>();
  @GuardedBy("lock")
  private final List<String> unexpected = new ArrayList<>();

  /**
   * Starts serving at once. {@code name} (such as "the fake Gemini server") is what failures call it; {@code
   * basePath} (such as {@code /v1}, or empty) is where the API lives, which {@link #baseUrl()} ends with.
   */
  @SuppressWarnings("this-escape") // requests reach the handler only once a test knows the port, after construction
  protected FakeHttpServer(String name, String basePath) {
    this.name = name;
    this.basePath = basePath;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Whether the API serves this request; one it does not is answered by {@link #notServed}. */
  protected boolean serves(RecordedRequest request) {
    return true;
  }

  /** The answer to a request the API does not serve: a 404 naming it, unless the fake knows better. */
  protected Reply notServed(RecordedRequest request) {
    return exchange -> exchange.send(404, "text/plain", name + " does not serve " + request.method() + " " + request.path());
  }

  /** The answer to request number {@code number} (from 1) when nothing is scripted for it. */
  protected abstract Reply unscripted(RecordedRequest request, int number);

  /**
   * The answer to served request number {@code number}: the next scripted reply, else {@link #unscripted}. A
   * fake that refuses malformed requests first (without using up a scripted reply) overrides this.
   */
  protected Reply replyTo(RecordedRequest request, int number) {
    Reply next = script.poll();
    return next != null ? next : unscripted(request, number);
  }

  /** What the client under test is pointed at: {@code http://127.0.0.1:PORT} and the base path. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + basePath;
  }

  /** Adds replies to the script, each answering one served request, in order. */
  public void enqueue(Reply... replies) {
    script.addAll(List.of(replies));
  }

  /** The requests served so far, in the order they came. */
  public List<RecordedRequest> requests() {
    lock.lock();
    try {
      return List.copyOf(requests);
    } finally {
      lock.unlock();
    }
  }

  /** Served request {@code index} (from 0), which must have come already. */
  public RecordedRequest request(int index) {
    lock.lock();
    try {
      if (index >= requests.size()) {
        throw new AssertionError(name + " was sent " + requests.size() + " requests, so there is no request " + index);
      }
      return requests.get(index);
    } finally {
      lock.unlock();
    }
  }

  /** Served request {@code index} (from 0), waiting up to {@code timeout} for it to come. */
  public RecordedRequest awaitRequest(int index, Duration timeout) {
    long left = timeout.toNanos();
    lock.lock();
    try {
      while (index >= requests.size()) {
        if (left <= 0) {
          throw new AssertionError(name + " was sent " + requests.size() + " requests, not request " + index + ", within " + timeout);
        }
        left = arrived.awaitNanos(left);
      }
      return requests.get(index);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for request " + index + " to " + name, e);
    } finally {
      lock.unlock();
    }
  }

  /** The requests the API does not serve ({@code METHOD path}), which were answered by {@link #notServed}. */
  public List<String> unexpected() {
    lock.lock();
    try {
      return List.copyOf(unexpected);
    } finally {
      lock.unlock();
    }
  }

  private void handle(HttpExchange http) throws IOException {
    RecordedRequest request = RecordedRequest.read(http);
    boolean served = serves(request);
    int number;
    lock.lock();
    try {
      if (served) {
        requests.add(request);
        arrived.signalAll();
      } else {
        unexpected.add(request.method() + " " + request.path());
      }
      number = requests.size();
    } finally {
      lock.unlock();
    }
    Reply reply = served ? replyTo(request, number) : notServed(request);
    reply.answer(new Exchange(http, request, number));
    // Not reached when the reply drops the connection or the client went away: the exception leaves the
    // response unfinished and the server closes the connection.
    http.close();
  }

  /** Releases held and paced replies, stops the server and waits for the request threads to end. */
  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
        throw new AssertionError(name + " still answers a request 10 s after closing");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * One request being answered, as a {@link Reply} sees it: what was sent, and the ways to answer.
   *
   * <p>Not thread-safe: used by the thread answering the request.
   */
  public final class Exchange {
    private final HttpExchange http;
    private final RecordedRequest request;
    private final int number;

    private Exchange(HttpExchange http, RecordedRequest request, int number) {
      this.http = http;
      this.request = request;
      this.number = number;
    }

    public RecordedRequest request() {
      return request;
    }

    /** Which served request this is, from 1 (for one the API does not serve: how many were served before). */
    public int number() {
      return number;
    }

    /** Adds a response header; call before the response starts. */
    public Exchange header(String name, String value) {
      http.getResponseHeaders().add(name, value);
      return this;
    }

    /** The whole response: status and body, of {@code contentType} unless a header set one already. */
    public void send(int status, String contentType, String body) throws IOException {
      if (!http.getResponseHeaders().containsKey("Content-Type")) {
        http.getResponseHeaders().set("Content-Type", contentType);
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      http.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        http.getResponseBody().write(bytes);
      }
    }

    /** Starts a chunked response with {@code text}, flushed; the reply may write more, {@link #hold} or {@link #drop}. */
    public OutputStream sendChunked(int status, String contentType, String text) throws IOException {
      http.getResponseHeaders().set("Content-Type", contentType);
      http.sendResponseHeaders(status, 0);
      OutputStream out = http.getResponseBody();
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
      return out;
    }

    /** Starts a 200 server-sent event stream whose lines end in {@code "\n"}. */
    public SseWriter sse() throws IOException {
      return sse("\n");
    }

    /** Starts a 200 server-sent event stream whose lines end in {@code lineBreak}. */
    public SseWriter sse(String lineBreak) throws IOException {
      return new SseWriter(sendChunked(200, "text/event-stream", ""), lineBreak, closing);
    }

    /**
     * Sends nothing more until the server closes, then drops the connection: a stalled stream, or (before
     * any response) a hung endpoint.
     */
    public void hold() throws IOException {
      try {
        closing.await(HOLD_LIMIT.toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      drop();
    }

    /** Drops the connection, leaving the response (if it started) unfinished. Always throws. */
    public void drop() throws IOException {
      throw new IOException("dropping the connection on purpose");
    }
  }
}
