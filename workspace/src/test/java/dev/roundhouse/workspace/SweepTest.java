package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The retention sweep: a dry run that says what and why, and a real run that removes only that. */
@ExtendWith(SandboxExtension.class)
class SweepTest {
  private static final Instant NOW = Instant.parse("2030-06-01T12:00:00Z");

  @Test
  void aDryRunListsWhatItWouldRemoveAndWhyTheRestIsKept(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace(sandbox.config(), Clock.fixed(NOW, ZoneOffset.UTC));
    TaskWorktree landed = landedTask(sandbox, workspace, 1);
    TaskWorktree running = landedTask(sandbox, workspace, 2);
    TaskWorktree recent = landedTask(sandbox, workspace, 3);
    TaskWorktree unlanded = sandbox.ensure(workspace, 4, "task 4").worktree();
    sandbox.commit(Path.of(unlanded.path()), "unlanded", "u.txt", "u\n");
    Instant old = NOW.minus(Duration.ofDays(30));
    List<SweepCandidate> candidates = List.of(
        new SweepCandidate(landed, false, old, List.of()),
        new SweepCandidate(running, true, old, List.of()),
        new SweepCandidate(recent, false, NOW.minus(Duration.ofDays(2)), List.of()),
        new SweepCandidate(unlanded, false, old, List.of()));

    SweepReport dryRun = workspace.cleanup().sweep(new SweepRequest(true, 7, candidates));

    assertThat(dryRun.items()).extracting(SweepItem::taskId, SweepItem::action).containsExactly(
        org.assertj.core.groups.Tuple.tuple(1L, SweepAction.WOULD_REMOVE),
        org.assertj.core.groups.Tuple.tuple(2L, SweepAction.KEPT),
        org.assertj.core.groups.Tuple.tuple(3L, SweepAction.KEPT),
        org.assertj.core.groups.Tuple.tuple(4L, SweepAction.KEPT));
    assertThat(dryRun.items().get(0).reason()).contains("landed").contains("is in main");
    assertThat(dryRun.items().get(1).reason()).contains("a turn is running");
    assertThat(dryRun.items().get(2).reason()).contains("2 day(s) ago").contains("kept for 7 day(s)");
    assertThat(dryRun.items().get(3).reason()).contains("has not landed");
    for (TaskWorktree worktree : List.of(landed, running, recent, unlanded)) {
      assertThat(Path.of(worktree.path())).exists();
    }

    SweepReport real = workspace.cleanup().sweep(new SweepRequest(false, 7, candidates));

    assertThat(real.items()).extracting(SweepItem::action)
        .containsExactly(SweepAction.REMOVED, SweepAction.KEPT, SweepAction.KEPT, SweepAction.KEPT);
    assertThat(Path.of(landed.path())).doesNotExist();
    assertThat(Path.of(running.path())).exists();
    assertThat(Path.of(recent.path())).exists();
    assertThat(Path.of(unlanded.path())).exists();
  }

  private static TaskWorktree landedTask(Sandbox sandbox, Workspace workspace, long id) {
    TaskWorktree worktree = sandbox.ensure(workspace, id, "task " + id).worktree();
    sandbox.commit(Path.of(worktree.path()), "work " + id, "f" + id + ".txt", id + "\n");
    MergeResult merged = workspace.merges().merge(worktree);
    assertThat(merged.outcome()).isIn(MergeOutcome.FAST_FORWARD, MergeOutcome.MERGE_COMMIT);
    return worktree;
  }
}
