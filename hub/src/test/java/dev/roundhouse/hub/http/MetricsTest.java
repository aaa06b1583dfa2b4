package dev.roundhouse.hub.http;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.spi.TurnEvent;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /metrics}: what it counts, and who may read it. */
class MetricsTest {
  private static final String METRICS_TOKEN = "scrape-only-0123456789";

  private TestHub hub;
  private HttpTestClient http;
  private EventRecorder events;

  @BeforeEach
  void start() {
    hub = TestHub.withDrivers(c -> c.withMetricsToken(METRICS_TOKEN), List.of(new TestDriver("asker", false, (request, context) -> {
      context.ask("Ship it?", List.of("yes", "no"));
      context.emit(new TurnEvent.AssistantMessage("shipped"));
    })));
    http = hub.http();
    events = new EventRecorder(hub.hub());
  }

  @AfterEach
  void stop() {
    events.close();
    hub.close();
  }

  /** A request to the hub carrying exactly {@code token} (none when null); the body as text. */
  private HttpResponse<String> send(String method, String path, String token) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(http.base() + path))
        .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("{}"));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (!method.equals("GET")) {
      request.header("Content-Type", "application/json");
    }
    try {
      return http.raw().send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private HttpResponse<String> scrape(String token) {
    return send("GET", "/metrics", token);
  }

  private static double value(String text, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(text);
    assertThat(m.find()).as("series %s in:%n%s", series, text).isTrue();
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aTurnsEventsDecisionAndCommitsAreCountedWithTheJvmsNumbers() {
    String backend = TestHub.onPostgres() ? "postgresql" : "sqlite";
    http.op("project_create", map("name", "web", "path", hub.folder("web"), "default_agent", "asker"));
    long task = http.op("task_create", map("project", "web", "title", "Release")).get("id").asLong();
    http.op("turn_start", map("task", task, "message", "go"));
    Event opened = events.await("decision.opened", task);

    String during = scrape(http.token()).body();
    assertThat(value(during, "roundhouse_decisions_pending{backend=\"" + backend + "\"}")).isEqualTo(1);
    assertThat(value(during, "roundhouse_turns{backend=\"" + backend + "\",driver=\"asker\",status=\"running\"}")).isEqualTo(1);

    http.op("decision_answer", map("decision", opened.data().at("/decision/id").asLong(), "answer", "yes"));
    events.await("turn.ended", task);

    HttpResponse<String> reply = scrape(http.token());
    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(reply.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
    String text = reply.body();
    assertThat(value(text, "roundhouse_events_total{backend=\"" + backend + "\",type=\"task.created\"}")).isEqualTo(1);
    assertThat(value(text, "roundhouse_events_total{backend=\"" + backend + "\",type=\"decision.answered\"}")).isEqualTo(1);
    assertThat(value(text, "roundhouse_decision_wait_seconds_count{backend=\"" + backend + "\",outcome=\"answered\"}")).isEqualTo(1);
    assertThat(value(text, "roundhouse_decisions_pending{backend=\"" + backend + "\"}")).isZero();
    assertThat(value(text, "roundhouse_turns{backend=\"" + backend + "\",driver=\"asker\",status=\"completed\"}")).isEqualTo(1);
    assertThat(text).doesNotContain("status=\"running\"");
    assertThat(value(text, "roundhouse_store_commits_total{backend=\"" + backend + "\"}")).isGreaterThanOrEqualTo(3);
    assertThat(value(text, "roundhouse_store_commit_seconds_count{backend=\"" + backend + "\"}"))
        .isEqualTo(value(text, "roundhouse_store_commits_total{backend=\"" + backend + "\"}"));
    assertThat(value(text, "roundhouse_turn_queue{backend=\"" + backend + "\"}")).isZero();
    assertThat(text).contains("jvm_memory_used_bytes{", "jvm_gc_", "process_uptime_seconds{", "jvm_threads_live_threads{");
  }

  @Test
  void aSecondGaugeOrCounterOfTheSameNameReplacesTheFirstScrapeAfterScrape() {
    var metrics = hub.hub().metrics();
    metrics.gauge("roundhouse.test.sessions", "A face's sessions", () -> 3);
    metrics.counter("roundhouse.test.renewals", "Renewals", () -> 7);
    assertThat(metrics.scrape())
        .containsPattern("(?m)^roundhouse_test_sessions\\{[^}]*\\} 3\\.0$")
        .containsPattern("(?m)^roundhouse_test_renewals_total\\{[^}]*\\} 7\\.0$");

    metrics.gauge("roundhouse.test.sessions", "A face's sessions", () -> 5);
    metrics.counter("roundhouse.test.renewals", "Renewals", () -> 9);
    String again = metrics.scrape();

    // Micrometer keeps a name's first registration: a scrape that registered again would still show 3 and 7.
    assertThat(again)
        .containsPattern("(?m)^roundhouse_test_sessions\\{[^}]*\\} 5\\.0$")
        .containsPattern("(?m)^roundhouse_test_renewals_total\\{[^}]*\\} 9\\.0$");
  }

  @Test
  void theMetricsTokenReadsMetricsAndNothingElseAndNoTokenReadsNothing() {
    assertThat(scrape(METRICS_TOKEN).statusCode()).isEqualTo(200);
    assertThat(scrape(null).statusCode()).isEqualTo(401);
    assertThat(scrape("wrong").statusCode()).isEqualTo(401);
    assertThat(send("POST", "/api/ops/project_list", METRICS_TOKEN).statusCode()).isEqualTo(401);
    assertThat(send("POST", "/api/ops/project_list", http.token()).statusCode()).isEqualTo(200);
    assertThat(send("POST", "/metrics", METRICS_TOKEN).statusCode()).isEqualTo(405);
  }
}
