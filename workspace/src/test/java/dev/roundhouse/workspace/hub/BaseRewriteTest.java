package dev.roundhouse.workspace.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A base rewritten on the remote (a force-push to the bare {@code origin.git}) is noticed by the next fetch, and the
 * tasks cut from the old history are flagged as {@code report_base_rewrite} flags them, never rebased; a plain push
 * flags nothing. The hub's clock is moved past the fetch freshness window between fetches.
 */
class BaseRewriteTest {
  private final ManualClock clock = new ManualClock(Instant.now());
  private WorkspaceHub w;

  @BeforeEach
  void open() {
    w = new WorkspaceHub(settings -> settings, List.of(), config -> config.withClock(clock));
    w.addProject("web", w.project);
  }

  @AfterEach
  void close() {
    w.close();
  }

  @Test
  void aForcePushedBaseFlagsTheTasksCutFromItsOldHistoryAndRebasesNone() {
    long before = w.task("web", "Before");
    w.turn(before, "before.txt=b\ncommit: before");
    Path colleague = w.root.resolve("colleague");
    w.git(w.root, "clone", "-q", w.remote.toString(), colleague.toString());
    WorkspaceHub.write(colleague, "pushed.txt", "a plain push\n");
    w.git(colleague, "add", "-A");
    w.git(colleague, "commit", "-q", "-m", "pushed");
    w.git(colleague, "push", "-q", "origin", "main");
    clock.advance(Duration.ofMinutes(1));

    long middle = w.task("web", "Middle");
    w.turn(middle, "middle.txt=m\ncommit: middle");
    assertThat(w.op("task_workspace", "task", middle).path("worktree").path("base_commit").asText())
        .as("cut from the pushed commit").isEqualTo(w.git(colleague, "rev-parse", "HEAD"));
    assertThat(flagged(before)).as("a plain push rewrites nothing").isFalse();

    w.git(colleague, "commit", "-q", "--amend", "-m", "pushed, then rewritten");
    w.git(colleague, "push", "-q", "--force", "origin", "main");
    String middleTip = w.git(w.project, "rev-parse", "roundhouse/" + middle + "-middle");
    clock.advance(Duration.ofMinutes(1));

    long after = w.task("web", "After");
    w.turn(after, "after.txt=a\ncommit: after");

    assertThat(flagged(middle)).as("cut from the commit the force-push dropped").isTrue();
    assertThat(flagged(after)).as("cut from the local main, which still holds the old history").isTrue();
    assertThat(flagged(before)).as("cut before the rewritten commit").isFalse();
    JsonNode rewrite = w.op("task_workspace", "task", middle).path("base_rewrite");
    assertThat(rewrite.path("ref").asText()).isEqualTo("origin/main");
    assertThat(rewrite.path("message").asText()).contains("was rewritten under task " + middle).contains("not rebased");
    Event event = w.events.await("workspace.base_rewritten", middle);
    assertThat(event.data().path("branch").asText()).isEqualTo("roundhouse/" + middle + "-middle");
    assertThat(w.git(w.project, "rev-parse", "roundhouse/" + middle + "-middle")).as("never rebased").isEqualTo(middleTip);
    Event placed = w.events.await("turn.placed", after);
    assertThat(placed.data().path("notes").toString()).contains("main was rewritten on origin (force-pushed)");
    assertThat(w.op("report_base_rewrite", "task", middle).path("flagged").asBoolean()).isTrue();
    assertThat(w.events.seen().stream().filter(e -> e.type().equals("workspace.base_rewritten") && Long.valueOf(middle).equals(e.taskId())))
        .as("flagged once").hasSize(1);
  }

  private boolean flagged(long task) {
    return w.op("task_workspace", "task", task).path("base_rewrite").path("rewritten").asBoolean(false);
  }
}
