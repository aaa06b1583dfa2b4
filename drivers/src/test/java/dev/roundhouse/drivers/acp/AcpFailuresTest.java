package dev.roundhouse.drivers.acp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.drivers.process.AgentCommand;
import dev.roundhouse.drivers.process.ChildProcesses;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.Waits;
import dev.roundhouse.hub.spi.AgentEndpoint;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent that is missing, crashes, hangs or dies mid-prompt ends the turn with an error that names what
 * went wrong (with the agent's stderr), never a hang, and leaves no process behind. The agents here are
 * small shell scripts that speak just enough ACP.
 */
class AcpFailuresTest {
  /** Answers the request on the line just read with {@code result} (the request id copied over). */
  static final String ANSWER = "answer() { read -r line; id=$(printf '%s' \"$line\" | sed 's/^.*\"id\":\"\\([^\"]*\\)\".*$/\\1/');"
      + " printf '{\"jsonrpc\":\"2.0\",\"id\":\"%s\",\"result\":%s}\\n' \"$id\" \"$1\"; };";
  static final String INITIALIZED = "answer '{\"protocolVersion\":1,\"agentInfo\":{\"name\":\"fake\",\"version\":\"9.9.9\"},"
      + "\"agentCapabilities\":{\"mcpCapabilities\":{\"http\":true}}}';";

  @TempDir Path project;

  @AfterEach
  void noProcessLeft() throws InterruptedException {
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(10));
  }

  private AcpDriver driver(String script, double startupSeconds) {
    AcpAgentConfig config = new AcpAgentConfig("fake", "Fake Agent", new AgentCommand("sh", List.of("-c", script), Map.of()),
        List.of(), List.of(), List.of(), List.of(), List.of(), Duration.ofMillis((long) (startupSeconds * 1000)), Duration.ofSeconds(1));
    return new AcpDriver(config, OfflineGemini.tuning(LineObserver.NONE));
  }

  private TurnRequest request() {
    return new TurnRequest(1, 7, "web", project, "hi", "Task #7", List.of(), null, null, null, false);
  }

  @Test
  void aMissingProgramIsNamed() {
    AcpAgentConfig config = AcpAgentConfig.of("ghost", "Ghost Agent", AgentCommand.of("/nonexistent/ghost-agent"));
    AcpDriver driver = new AcpDriver(config, OfflineGemini.tuning(LineObserver.NONE));

    assertThatThrownBy(() -> driver.run(request(), new RecordingTurnContext(0)))
        .hasMessage("cannot start Ghost Agent: /nonexistent/ghost-agent is not an executable file");
    assertThat(driver.authStatus().ok()).isFalse();
    assertThat(driver.authStatus().detail()).startsWith("Ghost Agent is not installed: '/nonexistent/ghost-agent' is not an executable file");
  }

  @Test
  void anAgentThatExitsAtOnceIsReportedWithItsExitCodeAndStderr() {
    AcpDriver driver = driver("echo 'fatal: no config' >&2; exit 3", 30);

    assertThatThrownBy(() -> driver.run(request(), new RecordingTurnContext(0)))
        .isInstanceOf(AcpAgentException.class)
        .hasMessage("Fake Agent exited (exit code 3) during initialize; its stderr ends with:\nfatal: no config");
  }

  @Test
  void aRequestSentAfterTheAgentsOutputEndedFailsAtOnceWithTheExit() throws Exception {
    // Whichever way the closed session refuses a late request, the caller hears of the exit at once.
    try (AcpConnection agent = AcpConnection.start("Fake Agent", List.of("sh", "-c", "echo 'fatal: no config' >&2; exit 3"),
        project, Map.of("PATH", System.getenv("PATH")), LineObserver.NONE, List.of())) {
      Waits.until("the agent's output to end", Duration.ofSeconds(10), () -> !agent.isAlive());
      long started = System.nanoTime();
      assertThatThrownBy(() -> agent.request("initialize", Map.of("protocolVersion", 1), Duration.ofSeconds(30)))
          .isInstanceOf(AcpAgentException.class)
          .hasMessage("Fake Agent exited (exit code 3) during initialize; its stderr ends with:\nfatal: no config");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }
  }

  @Test
  void anAgentThatNeverAnswersTimesOutAndIsKilled() {
    AcpDriver driver = driver("sleep 60", 1);

    assertThatThrownBy(() -> driver.run(request(), new RecordingTurnContext(0)))
        .hasMessage("Fake Agent did not answer initialize within 1 s");
  }

  @Test
  void anAgentThatDiesMidPromptFailsTheTurnAtOnce() {
    AcpDriver driver = driver(ANSWER + INITIALIZED + "answer '{\"sessionId\":\"s1\"}'; read -r line; echo 'out of memory' >&2; exit 137", 30);
    RecordingTurnContext context = new RecordingTurnContext(0);

    long started = System.nanoTime();
    assertThatThrownBy(() -> driver.run(request(), context))
        .hasMessage("Fake Agent exited (exit code 137) during session/prompt; its stderr ends with:\nout of memory");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    assertThat(context.shape()).isEqualTo("turn.session");
    assertThat(driver.authStatus().detail()).startsWith("Fake Agent 9.9.9 at ");
  }

  /**
   * An agent that goes silent mid-prompt (as Gemini CLI does while it retries a failing model endpoint) is
   * cancelled once the turn's clock has passed the endpoint deadline (3 min): the test advances the hub's
   * clock rather than waiting, and the turn fails naming the agent and the deadline, with no process left.
   */
  @Test
  void aSilentPromptEndsAtTheEndpointDeadlineOnTheTurnsClock() throws Exception {
    // silent after the prompt; answers it "cancelled" once session/cancel comes, as Gemini CLI does
    AcpDriver driver = driver(ANSWER + INITIALIZED + "answer '{\"sessionId\":\"s1\"}'; read -r prompt;"
        + " id=$(printf '%s' \"$prompt\" | sed 's/^.*\"id\":\"\\([^\"]*\\)\".*$/\\1/'); read -r cancel;"
        + " printf '{\"jsonrpc\":\"2.0\",\"id\":\"%s\",\"result\":{\"stopReason\":\"cancelled\"}}\\n' \"$id\"; exec cat >/dev/null", 30);
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    RecordingTurnContext context = new RecordingTurnContext(0, clock);
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    Thread.ofVirtual().start(() -> {
      try {
        driver.run(request(), context);
        failure.complete(null);
      } catch (Throwable t) {
        failure.complete(t);
      }
    });
    long started = System.nanoTime();
    Waits.until("the turn to end", Duration.ofSeconds(30), () -> {
      // the hub's time moves on (about 10 s per look of the driver's, so each notice mark is seen); the agent stays silent
      clock.advance(Duration.ofMillis(200));
      return failure.isDone();
    });
    assertThat(failure.get()).hasMessageStartingWith("Fake Agent heard nothing from its model for 180 s (it may be retrying a failing model endpoint); the prompt was cancelled");
    // while silent, the transcript said so (a quarter, half, three quarters in; a starved driver thread may skip one)
    assertThat(context.events(TurnEvent.EndpointSilent.class)).isNotEmpty().allSatisfy(notice -> {
      assertThat(notice.text()).startsWith("Fake Agent has had no answer from its model for ");
      assertThat(notice.silentSeconds()).isBetween(45L, 179L);
    });
    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("real time taken").isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void theHubsTokenNeverAppearsInAnError() {
    String token = "rh-agent-token-0123456789abcdef";
    AcpDriver driver = driver(ANSWER + INITIALIZED + "read -r line; printf '%s\\n' \"$line\" >&2; exit 1", 30);
    RecordingTurnContext context = new RecordingTurnContext(0).endpoint(new AgentEndpoint(URI.create("http://127.0.0.1:7411/mcp"), token, 7));

    assertThatThrownBy(() -> driver.run(request(), context))
        .hasMessageContaining("\"name\":\"Authorization\",\"value\":\"Bearer [redacted]\"")
        .hasMessageContaining("\"url\":\"http://127.0.0.1:7411/mcp\"")
        .hasMessageNotContaining(token);
  }
}
