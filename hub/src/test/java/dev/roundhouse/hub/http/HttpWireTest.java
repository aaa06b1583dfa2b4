package dev.roundhouse.hub.http;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.RawHttp;
import dev.roundhouse.hub.testing.RawHttp.Answer;
import dev.roundhouse.hub.testing.TestHub;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hub's HTTP face against exactly the bytes a careless or hostile client sends, over a raw socket: every
 * refusal is a JSON error with a status below 500, and nothing half-read is applied.
 */
class HttpWireTest {
  private TestHub hub;
  private HttpTestClient http;

  @BeforeEach
  void start() {
    hub = TestHub.start();
    http = hub.http();
    http.op("project_create", map("name", "web", "path", hub.folder("web")));
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  private Answer post(String path, String headers, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return RawHttp.exchange(hub.server().port(), "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + http.token() + "\r\n" + headers + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n" + body);
  }

  private Answer postJson(String body) {
    return post("/api/ops/task_create", "Content-Type: application/json\r\n", body);
  }

  private static void assertJsonError(Answer answer, int status, String code) {
    assertThat(answer.status()).as("%s", answer).isEqualTo(status);
    assertThat(answer.header("Content-Type")).as("%s", answer).startsWith("application/json");
    JsonNode error = answer.json().path("error");
    assertThat(error.path("status").asInt()).as("%s", answer).isEqualTo(status);
    assertThat(error.path("code").asText()).as("%s", answer).isEqualTo(code);
    assertThat(error.path("message").asText()).as("%s", answer).isNotBlank();
  }

  private int tasks() {
    return http.op("task_list", map("project", "web")).path("tasks").size();
  }

  @ParameterizedTest(name = "Content-Length: {0}")
  @ValueSource(strings = {"99999999999999999999", "9223372036854775808", "-1", "abc"})
  void aContentLengthThatIsNoLengthIsAJson400(String length) {
    Answer answer = RawHttp.exchange(hub.server().port(), "POST /api/ops/project_list HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Authorization: Bearer " + http.token() + "\r\nContent-Type: application/json\r\nContent-Length: " + length
        + "\r\nConnection: close\r\n\r\n{}");
    assertJsonError(answer, 400, "malformed_request");
    assertThat(answer.json().path("error").path("message").asText()).contains("Content-Length");
  }

  @Test
  void aPathThatIsNotValidPercentEncodingIsAJson400() {
    Answer answer = RawHttp.exchange(hub.server().port(), "GET /api/ops/%ZZ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + http.token() + "\r\nConnection: close\r\n\r\n");
    assertJsonError(answer, 400, "malformed_request");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "{\"project\":\"web\",\"title\":\"A\"} garbage",
      "{\"project\":\"web\",\"title\":\"A\"}{\"project\":\"web\",\"title\":\"B\"}",
      "{\"project\":\"web\",\"title\":\"A\"}]",
      "{\"project\":\"web\",\"title\":\"A\",\"title\":\"B\"}",
  })
  void jsonWithTrailingContentOrADuplicateKeyIsMalformedAndNothingIsApplied(String body) {
    assertJsonError(postJson(body), 400, "malformed_json");
    assertThat(tasks()).isZero();
  }

  @Test
  void aPostWithoutContentTypeIsRefusedAsTextPlainIs() {
    Answer plain = post("/api/ops/task_create", "Content-Type: text/plain\r\n", "{\"project\":\"web\",\"title\":\"A\"}");
    assertJsonError(plain, 415, "unsupported_media_type");
    Answer none = post("/api/ops/task_create", "", "{\"project\":\"web\",\"title\":\"A\"}");
    assertJsonError(none, 415, "unsupported_media_type");
    assertThat(tasks()).isZero();
  }

  @Test
  void aPostWithoutContentTypeOrBodyStillRunsAnOperationWithoutInput() {
    Answer answer = post("/api/ops/project_list", "", "");
    assertThat(answer.status()).as("%s", answer).isEqualTo(200);
  }

  @Test
  void twoOriginHeadersAreRefusedEvenWhenTheFirstIsLoopback() {
    Answer answer = RawHttp.exchange(hub.server().port(), "GET /api/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + http.token() + "\r\nOrigin: http://127.0.0.1:7420\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n");
    assertJsonError(answer, 403, "origin_refused");
  }

  @Test
  void twoHostHeadersAreAJson400EvenWhenTheFirstIsLoopback() {
    // Undertow refuses a repeated Host itself, before any handler; the hub turns its body-less 400 into JSON.
    Answer answer = RawHttp.exchange(hub.server().port(), "GET /api/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n"
        + "Authorization: Bearer " + http.token() + "\r\nConnection: close\r\n\r\n");
    assertJsonError(answer, 400, "host_refused");
    assertThat(answer.json().path("error").path("message").asText()).contains("more than one Host header");
  }

  @Test
  void anHttp11RequestWithoutHostIsAJson400() {
    Answer answer = RawHttp.exchange(hub.server().port(), "GET /api/projects HTTP/1.1\r\nAuthorization: Bearer "
        + http.token() + "\r\nConnection: close\r\n\r\n");
    assertJsonError(answer, 400, "host_refused");
    assertThat(answer.json().path("error").path("message").asText()).contains("no Host header");
  }

  @Test
  void aHostRefusalOnAJsonRpcMountIsAJsonRpcError() throws Exception {
    byte[] undertows = ("HTTP/1.1 400 Only One Host Header Allowed\r\nConnection: close\r\nContent-Length: 0\r\n"
        + "Date: Wed, 02 Dec 2026 02:08:01 GMT\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    String answer = new String(ParseFailureAnswers.replacement(undertows, "/mcp", "/mcp"::equals), StandardCharsets.UTF_8);
    JsonNode body = Json.mapper().readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
    assertThat(body.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(body.path("error").path("message").asText()).contains("more than one Host header");
    assertThat(ParseFailureAnswers.replacement("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII), "/mcp", "/mcp"::equals)).as("a 400 of the hub's own").isNull();
  }

  @Test
  void aHostWithAMalformedPortIsAJson400() {
    Answer answer = RawHttp.exchange(hub.server().port(), "GET /api/projects HTTP/1.1\r\nHost: 127.0.0.1:7x\r\n"
        + "Authorization: Bearer " + http.token() + "\r\nConnection: close\r\n\r\n");
    assertJsonError(answer, 400, "host_refused");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"\\ud800", "a\\udc00b", "\\udbff"})
  void aLoneSurrogateIsRefusedNamingTheField(String escaped) {
    Answer answer = postJson("{\"project\":\"web\",\"title\":\"" + escaped + "\"}");
    assertJsonError(answer, 400, "invalid_input");
    assertThat(answer.json().path("error").path("message").asText()).contains("$.title").contains("surrogate");
    assertThat(tasks()).isZero();
  }

  @Test
  void aNulAndAPairedSurrogateAreStoredExactly() {
    Answer answer = postJson("{\"project\":\"web\",\"title\":\"nul\\u0000here \\ud83d\\ude00\"}");
    if (TestHub.onPostgres()) {
      // PostgreSQL text has no NUL: refused, saying so (docs/configuration.md#the-postgresql-store)
      assertThat(answer.status()).as("%s", answer).isEqualTo(400);
      assertThat(answer.body()).contains("invalid_input", "NUL character (U+0000)");
      return;
    }
    assertThat(answer.status()).as("%s", answer).isEqualTo(200);
    long id = answer.json().path("id").asLong();
    assertThat(http.op("task_get", map("task", id)).path("title").asText()).isEqualTo("nul\u0000here \uD83D\uDE00");
  }
}
