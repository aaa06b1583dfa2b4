package dev.roundhouse.drivers.openai;

import static dev.roundhouse.drivers.openai.FakeModelServer.closeWithoutAnswer;
import static dev.roundhouse.drivers.openai.FakeModelServer.completion;
import static dev.roundhouse.drivers.openai.FakeModelServer.disconnectAfter;
import static dev.roundhouse.drivers.openai.FakeModelServer.finishChunk;
import static dev.roundhouse.drivers.openai.FakeModelServer.raw;
import static dev.roundhouse.drivers.openai.FakeModelServer.status;
import static dev.roundhouse.drivers.openai.FakeModelServer.stream;
import static dev.roundhouse.drivers.openai.FakeModelServer.streamText;
import static dev.roundhouse.drivers.openai.FakeModelServer.textChunk;
import static dev.roundhouse.drivers.openai.FakeModelServer.toolCallChunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.testing.RecordedRequest;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(LeakCheck.class)
class ChatClientTest {
  static final String KEY = "sk-test-0123456789abcdefKEY";
  static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  static final RandomGenerator NO_JITTER = () -> 0L;

  private final FakeModelServer server = FakeModelServer.start();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  private final RecordingSleeper sleeper = new RecordingSleeper();
  private final List<String> deltas = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    http.shutdownNow();
    server.close();
  }

  private OpenAiSettings settings(String key) {
    return new OpenAiSettings(URI.create(server.baseUrl()), "test-model", Secret.of(key).orElse(null), "TEST_KEY", null);
  }

  private ChatClient client() {
    return client(settings(KEY), RetryPolicy.DEFAULT, NO_JITTER);
  }

  private ChatClient client(OpenAiSettings settings, RetryPolicy retry, RandomGenerator random) {
    return new ChatClient(http, settings, retry, sleeper, random, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofSeconds(10));
  }

  private static ObjectNode body() {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("model", "test-model");
    body.putArray("messages").addObject().put("role", "user").put("content", "hello");
    return body;
  }

  private ChatReply complete(ChatClient client) throws InterruptedException {
    return client.complete(body(), deltas::add);
  }

  private String endpoint() {
    return "the endpoint at 127.0.0.1:" + URI.create(server.baseUrl()).getPort();
  }

  @Test
  void streamsTextDeltasAndReportsUsage() throws Exception {
    server.enqueue(streamText("Hel", "lo"));

    ChatReply reply = complete(client());

    assertThat(reply.content()).isEqualTo("Hello");
    assertThat(deltas).containsExactly("Hel", "lo");
    assertThat(reply.finishReason()).isEqualTo("stop");
    assertThat(reply.usage()).isEqualTo(new ChatReply.TokenUsage(10, 2, null));
    RecordedRequest request = server.request(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/v1/chat/completions");
    assertThat(request.header("authorization")).isEqualTo("Bearer " + KEY);
    assertThat(request.header("accept")).isEqualTo("text/event-stream");
    assertThat(request.json().path("stream").asBoolean()).isTrue();
    assertThat(request.json().path("stream_options").path("include_usage").asBoolean()).isTrue();
    assertThat(request.json().path("model").asText()).isEqualTo("test-model");
  }

  @Test
  void assemblesInterleavedToolCallFragmentsByIndex() throws Exception {
    server.enqueue(stream(
        toolCallChunk(0, "call_a", "read_file", "{\"path\":"),
        toolCallChunk(1, "call_b", "list_files", "{}"),
        toolCallChunk(0, null, null, "\"a.txt\"}"),
        finishChunk("tool_calls")));

    ChatReply reply = complete(client());

    assertThat(reply.toolCalls()).containsExactly(
        new ChatReply.ToolCallRequest("call_a", "read_file", "{\"path\":\"a.txt\"}"),
        new ChatReply.ToolCallRequest("call_b", "list_files", "{}"));
    assertThat(reply.finishReason()).isEqualTo("tool_calls");
    assertThat(reply.usage()).isNull();
  }

  @Test
  void toolCallsWithoutIndexAreToldApartByIdAndGetAnIdWhenMissing() throws Exception {
    server.enqueue(stream(
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"x1\",\"function\":{\"name\":\"search\",\"arguments\":{\"pattern\":\"a\"}}}]}}]}",
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"x2\",\"function\":{\"name\":\"read_file\",\"arguments\":\"{}\"}}]}}]}",
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":5,\"function\":{\"name\":\"list_files\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"stop\"}]}"));

    ChatReply reply = complete(client());

    assertThat(reply.toolCalls()).extracting(ChatReply.ToolCallRequest::name).containsExactly("search", "read_file", "list_files");
    assertThat(reply.toolCalls().get(0).arguments()).isEqualTo("{\"pattern\":\"a\"}");
    assertThat(reply.toolCalls().get(2).id()).startsWith("call_");
  }

  @Test
  void retriesA429AfterTheRetryAfterSeconds() throws Exception {
    server.enqueue(status(429, "{\"error\":{\"message\":\"Rate limit reached\"}}", "Retry-After", "7"), streamText("ok"));

    assertThat(complete(client()).content()).isEqualTo("ok");

    assertThat(sleeper.waits()).containsExactly(Duration.ofSeconds(7));
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void retriesA429AtTheRetryAfterHttpDate() throws Exception {
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(12).atZone(ZoneOffset.UTC));
    server.enqueue(status(429, "slow down", "Retry-After", date), streamText("ok"));

    assertThat(complete(client()).content()).isEqualTo("ok");

    assertThat(sleeper.waits()).containsExactly(Duration.ofSeconds(12));
  }

  @Test
  void retryAfterInMillisecondsIsHonoured() throws Exception {
    server.enqueue(status(429, "", "retry-after-ms", "1500", "Retry-After", "2"), streamText("ok"));

    complete(client());

    assertThat(sleeper.waits()).containsExactly(Duration.ofMillis(1500));
  }

  @Test
  void retryAfterIsCappedAtTheLongestWait() throws Exception {
    String pastDate = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.minusSeconds(30).atZone(ZoneOffset.UTC));
    server.enqueue(
        status(429, "", "Retry-After", "3600"),
        status(503, "", "Retry-After", pastDate),
        streamText("ok"));

    complete(client());

    assertThat(sleeper.waits()).containsExactly(Duration.ofSeconds(60), Duration.ZERO);
  }

  @Test
  void retriesServerErrorsWithExponentialBackoffAndJitter() throws Exception {
    server.enqueue(status(500, "boom"), status(503, "busy"), status(502, "bad gateway"), streamText("ok"));

    assertThat(complete(client()).content()).isEqualTo("ok");

    // Jitter scales each wait by 0.5..1; a generator that always draws 0 gives the lower bound.
    assertThat(sleeper.waits()).containsExactly(Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2));
  }

  @Test
  void jitterIsDrawnFromTheInjectedGenerator() throws Exception {
    server.enqueue(status(500, "boom"), status(500, "boom"), streamText("ok"));

    client(settings(KEY), RetryPolicy.DEFAULT, () -> -1L).complete(body(), deltas::add);

    assertThat(sleeper.waits()).hasSize(2);
    assertThat(sleeper.waits().get(0)).isBetween(Duration.ofMillis(990), Duration.ofSeconds(1));
    assertThat(sleeper.waits().get(1)).isBetween(Duration.ofMillis(1990), Duration.ofSeconds(2));
  }

  @Test
  void backoffIsCappedAtTheLongestWait() {
    RetryPolicy policy = new RetryPolicy(10, Duration.ofSeconds(1), Duration.ofSeconds(60));

    assertThat(policy.backoff(9, () -> -1L)).isEqualTo(Duration.ofSeconds(60));
    assertThat(policy.backoff(40, () -> 0L)).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void givesUpAfterFiveAttemptsAndSaysSo() {
    for (int i = 0; i < 5; i++) {
      server.enqueue(status(503, "{\"error\":{\"message\":\"overloaded\"}}"));
    }

    assertThatThrownBy(() -> complete(client()))
        .isInstanceOf(EndpointException.class)
        .hasMessage(endpoint() + " answered 503: overloaded (after 5 attempts)");
    assertThat(server.requests()).hasSize(5);
    assertThat(sleeper.waits()).hasSize(4);
  }

  @Test
  void unauthorizedIsNotRetriedAndTheProvidersMessageIsQuoted() {
    server.enqueue(status(401, "{\"error\":{\"message\":\"Invalid API key\",\"code\":401}}"));

    assertThatThrownBy(() -> complete(client()))
        .isInstanceOf(EndpointException.class)
        .hasMessage(endpoint() + " answered 401: Invalid API key")
        .satisfies(e -> assertThat(((EndpointException) e).status()).isEqualTo(401));
    assertThat(server.requests()).hasSize(1);
    assertThat(sleeper.waits()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 401, 403, 404})
  void clientErrorsAreNeverRetried(int status) {
    server.enqueue(status(status, "{\"error\":\"nope\"}"));

    assertThatThrownBy(() -> complete(client())).hasMessage(endpoint() + " answered " + status + ": nope");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void plainTextAndHtmlErrorBodiesAreQuotedBriefly() {
    server.enqueue(status(400, "model 'llama9' not found, try pulling it first\nmore details"));
    assertThatThrownBy(() -> complete(client())).hasMessage(endpoint() + " answered 400: model 'llama9' not found, try pulling it first");

    server.enqueue(status(502, "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>", "Content-Type", "text/html"));
    assertThatThrownBy(() -> client(settings(KEY), RetryPolicy.NONE, NO_JITTER).complete(body(), deltas::add))
        .hasMessage(endpoint() + " answered 502: an HTML page ('502 Bad Gateway')");
  }

  @Test
  void openRouterUpstreamDetailIsAddedToItsMessage() {
    server.enqueue(status(400, "{\"error\":{\"message\":\"Provider returned error\",\"code\":400,\"metadata\":{\"raw\":\"context too long\"}}}"));

    assertThatThrownBy(() -> complete(client())).hasMessage(endpoint() + " answered 400: Provider returned error: context too long");
  }

  @Test
  void theKeyIsScrubbedFromWhatTheProviderEchoes() {
    server.enqueue(status(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\"}}"));

    assertThatThrownBy(() -> complete(client()))
        .hasMessage(endpoint() + " answered 401: Incorrect API key provided: [redacted]")
        .satisfies(e -> assertThat(e.toString()).doesNotContain(KEY));
  }

  @Test
  void malformedSseDataIsReported() {
    server.enqueue(raw(200, "text/event-stream", "data: " + textChunk("Hi") + "\n\ndata: {not json\n\n"));

    assertThatThrownBy(() -> complete(client()))
        .isInstanceOf(EndpointException.class)
        .hasMessage("malformed SSE event from " + endpoint() + ": 'data: {not json' is not JSON");
    assertThat(deltas).containsExactly("Hi");
  }

  @Test
  void aLineThatIsNotSseIsReported() {
    server.enqueue(raw(200, "text/event-stream", ": comment\nevent: chunk\n" + textChunk("Hi") + "\n\n"));

    assertThatThrownBy(() -> complete(client()))
        .hasMessageStartingWith(endpoint() + " sent a malformed SSE line '{\"id\":\"chatcmpl-1\"")
        .hasMessageEndingWith("(expected 'data: ...')");
  }

  @Test
  void anErrorInsideTheStreamIsReported() {
    server.enqueue(stream(textChunk("Hi"), "{\"error\":{\"message\":\"upstream overloaded\",\"code\":502}}"));

    assertThatThrownBy(() -> complete(client())).hasMessage(endpoint() + " reported an error: upstream overloaded");
  }

  @Test
  void aDisconnectMidStreamIsAnErrorAndIsNotRetried() {
    server.enqueue(disconnectAfter("data: " + textChunk("Hel") + "\n\n"), streamText("never sent"));

    assertThatThrownBy(() -> complete(client()))
        .isInstanceOf(EndpointException.class)
        .hasMessageStartingWith("the stream from " + endpoint() + " broke off after ");
    assertThat(deltas).containsExactly("Hel");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void aStreamThatEndsWithoutFinishingIsAnError() {
    server.enqueue(raw(200, "text/event-stream", "data: " + textChunk("Hel") + "\n\n"));

    assertThatThrownBy(() -> complete(client()))
        .hasMessageContaining("ended after")
        .hasMessageContaining("without finishing the message (no finish_reason and no [DONE])");
  }

  @Test
  void streamingRefusedByTheServerFallsBackToAPlainRequest() throws Exception {
    server.enqueue(
        status(400, "{\"error\":{\"message\":\"Streaming is not supported for this model\"}}"),
        status(200, completion("Hi there")),
        status(200, completion("Again")));
    ChatClient client = client();

    ChatReply reply = complete(client);

    assertThat(reply.content()).isEqualTo("Hi there");
    assertThat(reply.usage()).isEqualTo(new ChatReply.TokenUsage(7, 3, null));
    assertThat(deltas).containsExactly("Hi there");
    assertThat(client.streamingRefused()).isTrue();
    JsonNode plain = server.request(1).json();
    assertThat(plain.path("stream").asBoolean()).isFalse();
    assertThat(plain.has("stream_options")).isFalse();
    assertThat(server.request(1).header("accept")).isEqualTo("application/json");
    // The rest of the turn does not try streaming again.
    assertThat(complete(client).content()).isEqualTo("Again");
    assertThat(server.requests()).hasSize(3);
    assertThat(server.request(2).json().path("stream").asBoolean()).isFalse();
  }

  @Test
  void aConnectionClosedBeforeAnyByteFallsBackToAPlainRequest() throws Exception {
    server.enqueue(closeWithoutAnswer(), status(200, completion("Hi")));

    assertThat(complete(client()).content()).isEqualTo("Hi");
    assertThat(server.requests()).hasSize(2);
    assertThat(server.request(1).json().path("stream").asBoolean()).isFalse();
  }

  @Test
  void anEmptyEventStreamFallsBackToAPlainRequest() throws Exception {
    server.enqueue(raw(200, "text/event-stream", ""), status(200, completion("Hi")));

    assertThat(complete(client()).content()).isEqualTo("Hi");
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void aServerThatIgnoresTheStreamFlagIsReadAsAWholeAnswer() throws Exception {
    server.enqueue(status(200, completion("Whole")));

    assertThat(complete(client()).content()).isEqualTo("Whole");
    assertThat(deltas).containsExactly("Whole");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void refusedStreamOptionsAreDroppedButStreamingIsKept() throws Exception {
    server.enqueue(status(400, "{\"error\":{\"message\":\"Unrecognized request argument supplied: stream_options\"}}"), streamText("ok"));

    assertThat(complete(client()).content()).isEqualTo("ok");
    JsonNode second = server.request(1).json();
    assertThat(second.path("stream").asBoolean()).isTrue();
    assertThat(second.has("stream_options")).isFalse();
  }

  @Test
  void withoutAKeyNoAuthorizationHeaderIsSent() throws Exception {
    server.enqueue(streamText("ok"));

    client(settings(null), RetryPolicy.DEFAULT, NO_JITTER).complete(body(), deltas::add);

    assertThat(server.request(0).header("authorization")).isNull();
  }

  @Test
  void aRefusedConnectionNamesTheUrl() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    OpenAiSettings closed = new OpenAiSettings(URI.create("http://127.0.0.1:" + port + "/v1"), "m", null, null, null);

    assertThatThrownBy(() -> client(closed, RetryPolicy.DEFAULT, NO_JITTER).complete(body(), deltas::add))
        .isInstanceOf(EndpointException.class)
        .hasMessage("cannot connect to http://127.0.0.1:" + port + "/v1: connection refused");
    assertThat(sleeper.waits()).isEmpty();
  }

  @Test
  void abortEndsAStalledStreamAtOnce() {
    server.enqueue(FakeModelServer.stall("data: " + textChunk("Hel") + "\n\n"));
    ChatClient client = client();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread turn = Thread.ofVirtual().start(() -> {
      try {
        client.complete(body(), deltas::add);
      } catch (Throwable e) {
        failure.set(e);
      }
    });
    Waits.until("the first delta", Duration.ofSeconds(10), () -> !deltas.isEmpty());

    client.abort();

    Waits.until("the stream to end", Duration.ofSeconds(10), () -> !turn.isAlive());
    assertThat(failure.get()).isInstanceOf(EndpointException.class).hasMessageContaining("the turn was stopped");
  }

  @Test
  void readsTheModelList() throws Exception {
    server.enqueue(status(200, FakeModelServer.models("a", "b")));

    JsonNode models = client().getJson("/models");

    assertThat(models.path("data").get(1).path("id").asText()).isEqualTo("b");
    assertThat(server.request(0).method()).isEqualTo("GET");
    assertThat(server.request(0).path()).isEqualTo("/v1/models");
  }
}
