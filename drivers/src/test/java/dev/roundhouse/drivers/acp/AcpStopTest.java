package dev.roundhouse.drivers.acp;

import static dev.roundhouse.drivers.acp.AcpFailuresTest.ANSWER;
import static dev.roundhouse.drivers.acp.AcpFailuresTest.INITIALIZED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.drivers.process.AgentCommand;
import dev.roundhouse.drivers.process.ChildProcesses;
import dev.roundhouse.drivers.testing.BackgroundTurn;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.spi.TurnStoppedException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stopped turn is an ordinary end: what the agent still says after {@code session/cancel} is dropped
 * quietly, not logged as an error. The agent is a shell script that speaks just enough ACP, and keeps
 * talking after the cancel as Gemini CLI does.
 */
class AcpStopTest {
  private static final String UPDATE = "printf '{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s1\","
      + "\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"%s\"}}}}\\n' ";

  @TempDir Path project;

  @AfterEach
  void noProcessLeft() throws InterruptedException {
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(10));
  }

  @Test
  void updatesAfterAStopAreDroppedWithoutAnErrorInTheLog() throws Exception {
    String script = ANSWER + INITIALIZED + "answer '{\"sessionId\":\"s1\"}';"
        + " read -r line; prompt=$(printf '%s' \"$line\" | sed 's/^.*\"id\":\"\\([^\"]*\\)\".*$/\\1/');"
        + UPDATE + "Thinking;"
        + " read -r line;" // session/cancel
        + UPDATE + "still-talking;"
        + " printf '{\"jsonrpc\":\"2.0\",\"id\":\"%s\",\"result\":{\"stopReason\":\"cancelled\"}}\\n' \"$prompt\";"
        + " while read -r line; do :; done";
    AcpAgentConfig config = new AcpAgentConfig("fake", "Fake Agent", new AgentCommand("sh", List.of("-c", script), Map.of()),
        List.of(), List.of(), List.of(), List.of(), List.of(), Duration.ofSeconds(30), Duration.ofSeconds(5));
    AcpDriver driver = new AcpDriver(config, OfflineGemini.tuning(LineObserver.NONE));
    RecordingTurnContext context = new RecordingTurnContext(3);
    BackgroundTurn turn = BackgroundTurn.startInterruptible(
        driver, new TurnRequest(3, 7, "web", project, "hi", "Task #7", List.of(), null, null, null, false), context);
    context.await(TurnEvent.TextDelta.class, Duration.ofSeconds(30));

    String log = stderrWhile(() -> {
      context.stop();
      Throwable outcome = turn.outcome(Duration.ofSeconds(30));
      assertThat(outcome).isInstanceOfAny(TurnStoppedException.class, InterruptedException.class);
    });

    // The stop waits for the prompt's answer, which the agent sends after the late update; the SDK handles each message
    // to its end (a failed handler's ERROR included) before the next. So by the outcome the update has come and gone:
    assertThat(context.refusedAfterStop()).as("the late update reached the stopped turn").isEqualTo(1);
    assertThat(log).doesNotContain("ERROR").doesNotContain("was stopped");
    assertThat(context.streamedText()).isEqualTo("Thinking");
  }

  private interface Action {
    void run() throws Exception;
  }

  /** What is written to {@code System.err} (where slf4j-simple logs) while {@code action} runs. */
  private static String stderrWhile(Action action) throws Exception {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(original);
    }
    String text = captured.toString(StandardCharsets.UTF_8);
    original.print(text);
    return text;
  }
}
