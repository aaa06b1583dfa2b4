package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Talks to one OpenAI-compatible endpoint: {@code POST /chat/completions} streamed as server-sent events
 * (falling back to a plain request when the server will not stream), {@code GET /models}, retries of 429
 * and 5xx answers, and error messages that name the endpoint and quote what it said.
 *
 * <p>Retries happen only before a response body is read: a stream that breaks after its first byte is an
 * error, never retried, so no output is duplicated. Waits go through the injected {@link Sleeper}, jitter
 * through the injected {@link RandomGenerator}, and {@code Retry-After} dates are read against the injected
 * {@link Clock}.
 *
 * <p>Thread-safe for one caller at a time plus {@link #abort()} from any thread (the turn's stop action):
 * the current exchange is cancelled or its body closed, and every later call fails.
 */
final class ChatClient {
  private static final Logger LOG = LoggerFactory.getLogger(ChatClient.class);
  private static final int MAX_ERROR_BODY_BYTES = 64 * 1024;
  private static final int MAX_SSE_LINE_BYTES = 8 * 1024 * 1024;

  private final HttpClient http;
  private final OpenAiSettings settings;
  private final RetryPolicy retry;
  private final Sleeper sleeper;
  private final RandomGenerator random;
  private final Clock clock;
  private final Duration requestTimeout;
  private final AtomicReference<Runnable> cancelCurrent = new AtomicReference<>();
  private volatile boolean aborted;
  private volatile boolean streamingRefused;
  private volatile boolean streamOptionsRefused;

  /**
   * @param requestTimeout how long to wait for response headers (a local server may first load the model)
   */
  ChatClient(
      HttpClient http,
      OpenAiSettings settings,
      RetryPolicy retry,
      Sleeper sleeper,
      RandomGenerator random,
      Clock clock,
      Duration requestTimeout) {
    this.http = http;
    this.settings = settings;
    this.retry = retry;
    this.sleeper = sleeper;
    this.random = random;
    this.clock = clock;
    this.requestTimeout = requestTimeout;
  }

  /**
   * Sends a chat completion request ({@code body} without {@code stream}) and returns the assistant's
   * message, calling {@code onText} with each piece of text as it streams in.
   *
   * @throws EndpointException naming what went wrong
   */
  ChatReply complete(ObjectNode body, Consumer<String> onText) throws InterruptedException {
    if (!streamingRefused) {
      try {
        return stream(body, onText);
      } catch (StreamRefusedException e) {
        streamingRefused = true;
        LOG.info("{} did not stream ({}); using plain requests for the rest of this turn", settings.endpointName(), e.getMessage());
      }
    }
    ObjectNode plain = body.deepCopy();
    plain.remove("stream_options");
    plain.put("stream", false);
    JsonNode response = readJson(sendExpectingAnswer(post(plain, false)), "POST /chat/completions");
    throwIfError(response);
    ReplyAssembler assembler = new ReplyAssembler(onText);
    assembler.acceptMessage(response);
    return assembler.reply();
  }

  /** True once the endpoint refused to stream and this client switched to plain requests. */
  boolean streamingRefused() {
    return streamingRefused;
  }

  /**
   * {@code GET} of {@code path} (such as {@code /models}), as JSON.
   *
   * @throws EndpointException naming what went wrong
   */
  JsonNode getJson(String path) throws InterruptedException {
    HttpRequest request = requestTo(path, "application/json").GET().build();
    return readJson(sendExpectingAnswer(request), "GET " + path);
  }

  /** Cancels the current exchange (or wait) and makes every later call fail. Safe from any thread. */
  void abort() {
    aborted = true;
    Runnable cancel = cancelCurrent.getAndSet(null);
    if (cancel != null) {
      cancel.run();
    }
  }

  private ChatReply stream(ObjectNode body, Consumer<String> onText) throws InterruptedException, StreamRefusedException {
    ObjectNode streamed = body.deepCopy();
    streamed.put("stream", true);
    if (!streamOptionsRefused) {
      streamed.putObject("stream_options").put("include_usage", true);
    }
    HttpResponse<InputStream> response;
    try {
      response = send(post(streamed, true));
    } catch (EndpointException e) {
      String said = e.getMessage().toLowerCase(Locale.ROOT);
      if (refusesOptions(e.status()) && !streamOptionsRefused && said.contains("stream_options")) {
        streamOptionsRefused = true;
        return stream(body, onText);
      }
      if (refusesOptions(e.status()) && said.contains("stream")) {
        throw new StreamRefusedException(e.getMessage());
      }
      throw e;
    } catch (NoAnswerException e) {
      throw new StreamRefusedException(e.getMessage());
    }
    String contentType = response.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT);
    if (!contentType.contains("text/event-stream") && contentType.contains("json")) {
      // The server ignored "stream": true and answered with the whole message.
      JsonNode whole = readJson(response, "POST /chat/completions");
      throwIfError(whole);
      ReplyAssembler assembler = new ReplyAssembler(onText);
      assembler.acceptMessage(whole);
      return assembler.reply();
    }
    return readStream(response.body(), onText);
  }

  private ChatReply readStream(InputStream body, Consumer<String> onText) throws StreamRefusedException {
    ReplyAssembler assembler = new ReplyAssembler(onText);
    SseLines lines = new SseLines(body, MAX_SSE_LINE_BYTES);
    boolean done = false;
    try (body) {
      String data;
      while ((data = lines.nextData()) != null) {
        if (data.strip().equals("[DONE]")) {
          done = true;
          break;
        }
        JsonNode chunk;
        try {
          chunk = Json.mapper().readTree(data);
        } catch (JsonProcessingException e) {
          throw failure(0, "malformed SSE event from " + settings.endpointName() + ": 'data: " + SseLines.shorten(data) + "' is not JSON");
        }
        throwIfError(chunk);
        assembler.acceptChunk(chunk);
      }
    } catch (SseLines.MalformedSseException e) {
      throw failure(0, settings.endpointName() + " sent a " + e.getMessage());
    } catch (IOException e) {
      if (aborted) {
        throw stopped();
      }
      if (lines.bytesRead() == 0) {
        throw new StreamRefusedException("it closed the stream before sending anything");
      }
      throw failure(0, "the stream from " + settings.endpointName() + " broke off after " + lines.bytesRead() + " bytes (" + reason(e) + ")");
    }
    if (aborted) {
      throw stopped();
    }
    if (lines.bytesRead() == 0) {
      throw new StreamRefusedException("it closed the stream before sending anything");
    }
    if (!done && !assembler.finished()) {
      throw failure(
          0,
          "the stream from " + settings.endpointName() + " ended after " + lines.bytesRead()
              + " bytes without finishing the message (no finish_reason and no [DONE])");
    }
    return assembler.reply();
  }

  private HttpResponse<InputStream> sendExpectingAnswer(HttpRequest request) throws InterruptedException {
    try {
      return send(request);
    } catch (NoAnswerException e) {
      throw failure(0, e.getMessage());
    }
  }

  /** Sends {@code request}, retrying 429 and 5xx; returns a 2xx response whose body the caller reads. */
  private HttpResponse<InputStream> send(HttpRequest request) throws InterruptedException, NoAnswerException {
    for (int attempt = 1; ; attempt++) {
      HttpResponse<InputStream> response = exchange(request);
      int status = response.statusCode();
      if (status >= 200 && status <= 299) {
        return response;
      }
      String message = settings.redact(ProviderMessages.fromBody(readCapped(response.body()), status));
      if (RetryPolicy.isRetryable(status) && attempt < retry.maxAttempts()) {
        int retryNumber = attempt;
        Duration wait = RetryPolicy.retryAfter(response.headers(), clock).map(retry::cap).orElseGet(() -> retry.backoff(retryNumber, random));
        LOG.info("{} answered {}; retrying in {} ms (attempt {} of {})", settings.endpointName(), status, wait.toMillis(), attempt + 1, retry.maxAttempts());
        sleeper.sleep(wait);
        if (aborted) {
          throw stopped();
        }
        continue;
      }
      if (status >= 300 && status <= 399) {
        String location = response.headers().firstValue("location").orElse("somewhere else");
        throw failure(status, settings.endpointName() + " answered " + status + ", a redirect to " + location + "; set the base URL to where it points");
      }
      throw failure(status, settings.endpointName() + " answered " + status + ": " + message + (RetryPolicy.isRetryable(status) && attempt > 1 ? " (after " + attempt + " attempts)" : ""));
    }
  }

  private HttpResponse<InputStream> exchange(HttpRequest request) throws InterruptedException, NoAnswerException {
    if (aborted) {
      throw stopped();
    }
    CompletableFuture<HttpResponse<InputStream>> future = http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
    cancelCurrent.set(() -> future.cancel(true));
    if (aborted) {
      future.cancel(true);
    }
    try {
      HttpResponse<InputStream> response = future.get();
      InputStream body = response.body();
      cancelCurrent.set(() -> closeQuietly(body));
      if (aborted) {
        closeQuietly(body);
        throw stopped();
      }
      return response;
    } catch (CancellationException e) {
      throw stopped();
    } catch (InterruptedException e) {
      future.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      if (aborted) {
        throw stopped();
      }
      throw connectionFailure(e.getCause());
    }
  }

  /**
   * Throws an {@link EndpointException} for a connection that could not be made (refused, unknown host,
   * timeout); returns a {@link NoAnswerException} for one that was made and then closed without an answer.
   */
  private NoAnswerException connectionFailure(Throwable cause) {
    String where = settings.baseUrl().map(Object::toString).orElse("the endpoint");
    if (cause instanceof HttpConnectTimeoutException) {
      throw failure(0, "cannot connect to " + where + ": no answer within the connect timeout");
    }
    if (cause instanceof HttpTimeoutException) {
      throw failure(0, settings.endpointName() + " did not start answering within " + requestTimeout.toSeconds() + " s");
    }
    if (has(cause, UnresolvedAddressException.class) || has(cause, UnknownHostException.class)) {
      throw failure(0, "cannot connect to " + where + ": unknown host " + settings.baseUrl().map(java.net.URI::getHost).orElse(""));
    }
    if (has(cause, ConnectException.class)) {
      // The JDK's client leaves a refused connection without a message.
      String reason = reason(cause);
      throw failure(0, "cannot connect to " + where + ": " + (reason.equals("ConnectException") ? "connection refused" : reason));
    }
    return new NoAnswerException(settings.endpointName() + " closed the connection before answering (" + reason(cause) + ")");
  }

  private HttpRequest post(ObjectNode body, boolean streaming) {
    return requestTo("/chat/completions", streaming ? "text/event-stream" : "application/json")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
        .build();
  }

  private HttpRequest.Builder requestTo(String path, String accept) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(settings.resolve(path))
            .timeout(requestTimeout)
            .header("Accept", accept)
            .header("User-Agent", "Roundhouse");
    settings.apiKey().ifPresent(key -> builder.header("Authorization", "Bearer " + key.reveal()));
    return builder;
  }

  private JsonNode readJson(HttpResponse<InputStream> response, String what) {
    String text;
    try (InputStream body = response.body()) {
      text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      if (aborted) {
        throw stopped();
      }
      throw failure(0, settings.endpointName() + " broke off its answer to " + what + " (" + reason(e) + ")");
    }
    try {
      return Json.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw failure(response.statusCode(), settings.endpointName() + " answered " + what + " with something that is not JSON: '" + SseLines.shorten(text) + "'");
    }
  }

  /** An {@code {"error": ...}} object in place of a response or chunk becomes an exception. */
  private void throwIfError(JsonNode node) {
    JsonNode error = node.get("error");
    if (error != null && !error.isNull()) {
      int status = error.path("code").canConvertToInt() ? error.path("code").asInt() : 0;
      throw failure(status, settings.endpointName() + " reported an error: " + ProviderMessages.fromJson(node).orElse(error.toString()));
    }
  }

  /** Statuses with which a server refuses an option it does not support. */
  private static boolean refusesOptions(int status) {
    return status == 400 || status == 405 || status == 415 || status == 422 || status == 501;
  }

  private String readCapped(InputStream body) {
    try (body) {
      return new String(body.readNBytes(MAX_ERROR_BODY_BYTES), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private EndpointException failure(int status, String message) {
    return new EndpointException(status, settings.redact(message));
  }

  private EndpointException stopped() {
    return new EndpointException(0, "the request to " + settings.endpointName() + " was cancelled: the turn was stopped");
  }

  private static boolean has(Throwable error, Class<? extends Throwable> type) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return true;
      }
    }
    return false;
  }

  /** The most specific message in a cause chain, lower-cased at the start ("connection refused"). */
  static String reason(Throwable error) {
    String message = null;
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
        message = cause.getMessage();
      }
    }
    if (message == null) {
      return error.getClass().getSimpleName();
    }
    return message.length() > 1 && Character.isUpperCase(message.charAt(0)) && Character.isLowerCase(message.charAt(1))
        ? Character.toLowerCase(message.charAt(0)) + message.substring(1)
        : message;
  }

  private static void closeQuietly(InputStream body) {
    try {
      body.close();
    } catch (IOException e) {
      // Closing only to cancel.
    }
  }

  /** The connection closed before any response arrived. */
  private static final class NoAnswerException extends Exception {
    private static final long serialVersionUID = 1L;

    NoAnswerException(String message) {
      super(message);
    }
  }

  /** The server will not stream this request; the caller falls back to a plain one. */
  private static final class StreamRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    StreamRefusedException(String message) {
      super(message);
    }
  }
}
