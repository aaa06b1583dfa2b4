package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import dev.roundhouse.hub.testing.Waits;
import org.junit.jupiter.api.Test;

/** When {@link KnownSessions} lets a session's calls bypass the SDK, on a clock the test drives. */
class KnownSessionsTest {
  private static final Duration IDLE = Duration.ofMinutes(30);
  private final AtomicLong now = new AtomicLong(1_000);
  private final KnownSessions sessions = new KnownSessions(IDLE, now::get);
  private final McpSchema.Implementation client = McpSchema.Implementation.builder("cursor", "1").build();

  /** Sessions the test holds, as the SDK holds its live ones (entries hold them weakly). */
  private final List<McpStreamableServerSession> held = new ArrayList<>();

  private McpStreamableServerSession session(String id) {
    McpStreamableServerSession session =
        new McpStreamableServerSession(id, McpSchema.ClientCapabilities.builder().build(), client, Duration.ofSeconds(10), Map.of(), Map.of());
    held.add(session);
    return session;
  }

  @Test
  void aStartedSessionIsAnsweredDirectlyOnlyOnceTheSdkAnsweredItWithSuccess() {
    sessions.started(session("s1"), client);
    assertThat(sessions.direct("s1")).as("not yet confirmed").isNull();

    sessions.sdkAnswered("s1", 400);
    assertThat(sessions.direct("s1")).as("a refusal before the SDK looked the session up confirms nothing").isNull();

    sessions.sdkAnswered("s1", 202);
    KnownSessions.Live known = sessions.direct("s1");
    assertThat(known).isNotNull();
    assertThat(known.client()).isEqualTo(client);
    assertThat(known.session().getId()).isEqualTo("s1");
    assertThat(sessions.direct("other")).isNull();
  }

  @Test
  void aQuarterOfTheIdleTimeAfterTheSdkLastAnsweredTheNextRequestGoesToTheSdk() {
    sessions.started(session("s1"), client);
    sessions.sdkAnswered("s1", 200);

    now.addAndGet(IDLE.toNanos() / 4 - 1);
    assertThat(sessions.direct("s1")).isNotNull();
    now.addAndGet(1);
    assertThat(sessions.direct("s1")).as("due to show the SDK that it is in use").isNull();

    sessions.sdkAnswered("s1", 200);
    assertThat(sessions.direct("s1")).isNotNull();
  }

  @Test
  void aSessionIsForgottenWhenTheSdkAnswers404OrTheClientDeletesIt() {
    sessions.started(session("s1"), client);
    sessions.started(session("s2"), client);
    sessions.sdkAnswered("s1", 200);
    sessions.sdkAnswered("s2", 200);

    sessions.sdkAnswered("s1", 404);
    sessions.forget("s2");
    assertThat(sessions.direct("s1")).isNull();
    assertThat(sessions.direct("s2")).isNull();
    assertThat(sessions.size()).isZero();

    sessions.sdkAnswered("s1", 200);
    assertThat(sessions.direct("s1")).as("only the SDK starting a session records it").isNull();
  }

  @Test
  void theEntryOfASessionTheSdkDroppedIsPrunedWhenTheNextSessionStarts() {
    sessions.started(session("dropped"), client);
    sessions.sdkAnswered("dropped", 200);
    held.clear(); // the SDK forgets it: nothing holds it now
    Waits.until("the dropped session's entry pruned", Duration.ofSeconds(20), () -> {
      System.gc();
      sessions.started(session("next"), client);
      return sessions.size() == 1;
    });
    assertThat(sessions.direct("dropped")).isNull();
  }
}
