package dev.roundhouse.drivers.codex;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The small pieces: the endpoint deadline (on a manual clock), shell scripts, prices, endpoint names. */
class CodexUnitsTest {
  final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

  @Test
  void theDeadlinePassesWhenNothingButRetriesArrive() {
    EndpointDeadline deadline = new EndpointDeadline(clock, Duration.ofSeconds(10));
    clock.advance(Duration.ofSeconds(6));
    deadline.observe("error", json("{\"willRetry\": true, \"error\": {\"message\": \"Reconnecting... 2/5\", \"additionalDetails\": \"stream closed\"}}"));
    clock.advance(Duration.ofSeconds(3));

    assertThat(deadline.remaining()).contains(Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(1));
    assertThat(deadline.expired()).isTrue();
    assertThat(deadline.lastRetry()).contains("Reconnecting... 2/5 (stream closed)");
  }

  @Test
  void progressRestartsTheDeadlineAndARunningToolSuspendsIt() {
    EndpointDeadline deadline = new EndpointDeadline(clock, Duration.ofSeconds(10));
    clock.advance(Duration.ofSeconds(8));
    deadline.observe("item/agentMessage/delta", json("{\"delta\": \"x\"}"));
    assertThat(deadline.remaining()).contains(Duration.ofSeconds(10));

    deadline.observe("item/started", json("{\"item\": {\"type\": \"commandExecution\", \"id\": \"c1\"}}"));
    clock.advance(Duration.ofMinutes(5));
    assertThat(deadline.remaining()).isEmpty();
    assertThat(deadline.expired()).isFalse();

    deadline.observe("item/completed", json("{\"item\": {\"type\": \"commandExecution\", \"id\": \"c1\"}}"));
    assertThat(deadline.remaining()).contains(Duration.ofSeconds(10));
    assertThat(deadline.lastRetry()).isEmpty();
  }

  @Test
  void theShellWrapperIsTakenOffCommands() {
    assertThat(ShellCommands.script("/bin/bash -lc 'npm test'")).isEqualTo("npm test");
    assertThat(ShellCommands.script("/bin/bash -lc 'echo '\\''quoted'\\'''")).isEqualTo("echo 'quoted'");
    assertThat(ShellCommands.script("/bin/bash -lc 'a' && 'b'")).isEqualTo("/bin/bash -lc 'a' && 'b'");
    assertThat(ShellCommands.script("ls -la")).isEqualTo("ls -la");
    assertThat(ShellCommands.scriptOf(json("{\"command\": \"/bin/bash -lc 'x'\", \"proposedExecpolicyAmendment\": [\"/bin/bash\", \"-lc\", \"git status\"]}")))
        .isEqualTo("git status");
  }

  @Test
  void pricesMatchTheLongestPrefixAndUnknownModelsHaveNone() {
    assertThat(PriceTable.DEFAULT.priceOf("gpt-5-mini-2025")).contains(new PriceTable.Price(0.25, 0.025, 2.0));
    assertThat(PriceTable.DEFAULT.priceOf("openai/gpt-5.5")).contains(new PriceTable.Price(1.25, 0.125, 10.0));
    assertThat(PriceTable.DEFAULT.cost("llama3", 100, 0, 100)).isEmpty();
    assertThat(PriceTable.DEFAULT.cost("o3", 1_000_000, 500_000, 1_000_000)).contains(0.5 * 2.0 + 0.5 * 0.5 + 8.0);
  }

  @Test
  void endpointsAreNamedFromCodexConfig() {
    assertThat(ModelEndpoint.describe(json("{\"config\": {\"model_provider\": \"fake\", \"model_providers\": {\"fake\": {\"base_url\": \"http://127.0.0.1:9/v1\"}}}}")))
        .isEqualTo("the model endpoint http://127.0.0.1:9/v1 (codex provider 'fake')");
    assertThat(ModelEndpoint.describe(json("{\"config\": {}}"))).isEqualTo("the model endpoint https://api.openai.com/v1 (codex provider 'openai')");
    assertThat(ModelEndpoint.innerMessage("{\"error\": {\"message\": \"bad key\"}}")).isEqualTo("bad key");
    assertThat(ModelEndpoint.innerMessage("plain")).isNull();
    assertThat(ModelEndpoint.innerMessage("unexpected status 503 Service Unavailable: pool draining, url: http://127.0.0.1:9/v1/responses"))
        .isEqualTo("pool draining");
    assertThat(ModelEndpoint.innerMessage("unexpected status 502 Bad Gateway: {\"error\": {\"message\": \"no upstream\"}}")).isEqualTo("no upstream");
    assertThat(ModelEndpoint.httpStatus(json("{\"responseStreamConnectionFailed\": {\"httpStatusCode\": 502}}"))).isEqualTo(Optional.of(502));
  }

  @Test
  void codexsInternalServerErrorKindIsTheEndpointsHttp500() {
    assertThat(ModelEndpoint.impliedStatus(json("\"internalServerError\""))).isEqualTo(Optional.of(500));
    assertThat(ModelEndpoint.impliedStatus(json("\"usageLimitExceeded\""))).isEmpty();
    assertThat(ModelEndpoint.impliedStatus(json("{\"responseStreamConnectionFailed\": {\"httpStatusCode\": 502}}"))).isEmpty();
  }

  private static JsonNode json(String text) {
    return Json.read(text, JsonNode.class);
  }
}
