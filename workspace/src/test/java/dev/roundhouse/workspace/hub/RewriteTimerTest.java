package dev.roundhouse.workspace.hub;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rewrite check's timer: with no task starting or syncing, a force-push to the bare {@code origin.git} is found
 * once the check is due by the hub's clock, and the task cut from the old history is flagged by the scheduler, not
 * rebased. The poller's own timer is a day, so only the test polls ({@code pollNow}); the clock is moved, never waited.
 */
class RewriteTimerTest {
  private final ManualClock clock = new ManualClock(Instant.now());
  private WorkspaceHub w;

  @AfterEach
  void close() {
    if (w != null) {
      w.close();
    }
  }

  @Test
  void aForcePushIsFoundWhenTheCheckIsDueAndNotBefore() {
    open(Duration.ofMinutes(10));
    long task = w.task("web", "Task");
    w.turn(task, "task.txt=t\ncommit: task");
    String tip = w.git(w.project, "rev-parse", "roundhouse/" + task + "-task");
    forcePushRewrittenMain();

    clock.advance(Duration.ofMinutes(9));
    w.extension.pollNow();
    assertThat(flagged(task)).as("not due yet").isFalse();

    clock.advance(Duration.ofMinutes(1));
    w.extension.pollNow();

    assertThat(flagged(task)).as("due: fetched, checked, flagged").isTrue();
    Event event = w.events.await("workspace.base_rewritten", task);
    assertThat(event.actor()).isEqualTo(Actor.SCHEDULER);
    assertThat(event.data().path("rewrite").path("ref").asText()).isEqualTo("origin/main");
    assertThat(w.git(w.project, "rev-parse", "roundhouse/" + task + "-task")).as("never rebased").isEqualTo(tip);

    clock.advance(Duration.ofMinutes(10));
    w.extension.pollNow();
    assertThat(w.events.seen().stream().filter(e -> e.type().equals("workspace.base_rewritten")))
        .as("flagged once, not again on the next round").hasSize(1);
  }

  @Test
  void aZeroPeriodTurnsTheCheckOff() {
    open(Duration.ZERO);
    long task = w.task("web", "Task");
    w.turn(task, "task.txt=t\ncommit: task");
    forcePushRewrittenMain();

    clock.advance(Duration.ofDays(2));
    w.extension.pollNow();

    assertThat(flagged(task)).isFalse();
    assertThat(w.op("report_base_rewrite", "task", task).path("flagged").asBoolean())
        .as("asked by hand: the remote-tracking ref has not moved, so nothing is seen yet").isFalse();
  }

  private void open(Duration period) {
    w = new WorkspaceHub(settings -> settings.withPollInterval(Duration.ofDays(1)).withRewriteCheck(period), List.of(),
        config -> config.withClock(clock));
    w.addProject("web", w.project);
  }

  /** A colleague rewrites the commit every task was cut from and force-pushes it. */
  private void forcePushRewrittenMain() {
    Path colleague = w.root.resolve("colleague");
    w.git(w.root, "clone", "-q", w.remote.toString(), colleague.toString());
    w.git(colleague, "commit", "-q", "--amend", "-m", "initial, rewritten");
    w.git(colleague, "push", "-q", "--force", "origin", "main");
  }

  private boolean flagged(long task) {
    return w.op("task_workspace", "task", task).path("base_rewrite").path("rewritten").asBoolean(false);
  }
}
