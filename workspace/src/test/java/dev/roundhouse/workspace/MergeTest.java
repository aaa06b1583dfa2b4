package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Landing a task on its base and syncing the base into a task, with nothing ever left half-merged. */
@ExtendWith(SandboxExtension.class)
class MergeTest {

  @Test
  void aTaskAheadOfItsBaseFastForwardsTheBaseAndTheUsersCleanCheckout(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 1, "ff").worktree();
    String tip = sandbox.commit(Path.of(worktree.path()), "work", "src/feature.txt", "feature\n");

    MergeResult result = workspace.merges().merge(worktree);

    assertThat(result.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    assertThat(result.after()).isEqualTo(tip);
    assertThat(sandbox.tip("main")).isEqualTo(tip);
    assertThat(sandbox.project.resolve("src/feature.txt")).hasContent("feature");
    assertThat(sandbox.git(sandbox.project, "status", "--porcelain")).isEmpty();
    assertThat(workspace.merges().merge(worktree).outcome()).isEqualTo(MergeOutcome.UP_TO_DATE);
  }

  @Test
  void aBaseThatMovedOnGetsAMergeCommitWithBothParents(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 2, "merge").worktree();
    String task = sandbox.commit(Path.of(worktree.path()), "task work", "src/task.txt", "task\n");
    String base = sandbox.commit(sandbox.project, "base work", "src/base.txt", "base\n");

    MergeResult result = workspace.merges().merge(worktree);

    assertThat(result.outcome()).isEqualTo(MergeOutcome.MERGE_COMMIT);
    assertThat(sandbox.tip("main")).isEqualTo(result.after());
    assertThat(sandbox.git(sandbox.project, "rev-parse", "main^1", "main^2")).isEqualTo(base + "\n" + task);
    assertThat(sandbox.git(sandbox.project, "log", "-1", "--format=%an %s", "main"))
        .isEqualTo("Project Owner Merge branch 'roundhouse/2-merge' into main");
    assertThat(sandbox.project.resolve("src/task.txt")).exists();
    assertThat(sandbox.git(sandbox.project, "status", "--porcelain")).isEmpty();
  }

  @Test
  void aConflictNamesTheFilesAndLeavesBaseAndCheckoutUntouched(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 3, "conflict").worktree();
    sandbox.commit(Path.of(worktree.path()), "task edit", "src/app.txt", "task version\n", "src/task.txt", "t\n");
    String base = sandbox.commit(sandbox.project, "base edit", "src/app.txt", "base version\n");

    MergeResult result = workspace.merges().merge(worktree);

    assertThat(result.outcome()).isEqualTo(MergeOutcome.CONFLICT);
    assertThat(result.conflicts()).containsExactly("src/app.txt");
    assertThat(result.message()).contains("src/app.txt").contains("nothing was changed");
    assertThat(sandbox.tip("main")).isEqualTo(base);
    assertThat(sandbox.project.resolve("src/app.txt")).hasContent("base version");
    assertThat(sandbox.project.resolve("src/task.txt")).doesNotExist();
    assertThat(sandbox.git(sandbox.project, "status", "--porcelain")).isEmpty();
    assertThat(sandbox.project.resolve(".git/MERGE_HEAD")).doesNotExist();
    assertThat(Files.exists(Path.of(worktree.path()).resolve(".git"))).isTrue();
  }

  @Test
  void aDirtyUserCheckoutOfTheBaseRefusesTheMergeAndKeepsTheEdit(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 4, "dirty").worktree();
    sandbox.commit(Path.of(worktree.path()), "work", "src/feature.txt", "feature\n");
    String base = sandbox.tip("main");
    sandbox.write(sandbox.project, "README.md", "edited by the user\n");

    MergeResult result = workspace.merges().merge(worktree);

    assertThat(result.outcome()).isEqualTo(MergeOutcome.REFUSED);
    assertThat(result.message()).contains("main is checked out in " + sandbox.project).contains("README.md");
    assertThat(sandbox.tip("main")).isEqualTo(base);
    assertThat(sandbox.project.resolve("README.md")).hasContent("edited by the user");
  }

  @Test
  void aHeldIndexLockInTheUsersCheckoutRefusesTheMerge(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 5, "locked").worktree();
    sandbox.commit(Path.of(worktree.path()), "work", "src/feature.txt", "feature\n");
    String base = sandbox.tip("main");
    Path lock = Files.createFile(sandbox.project.resolve(".git/index.lock"));

    MergeResult result = workspace.merges().merge(worktree);

    assertThat(result.outcome()).isEqualTo(MergeOutcome.REFUSED);
    assertThat(result.message()).contains("index.lock");
    Files.delete(lock);
    assertThat(sandbox.tip("main")).isEqualTo(base);
    assertThat(sandbox.project.resolve("src/feature.txt")).doesNotExist();
  }

  @Test
  void aBaseCheckedOutNowhereMovesByCompareAndSwap(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 6, "elsewhere").worktree();
    String tip = sandbox.commit(Path.of(worktree.path()), "work", "src/feature.txt", "feature\n");
    sandbox.git(sandbox.project, "checkout", "-q", "-b", "user-branch");
    sandbox.write(sandbox.project, "README.md", "dirty but not on main\n");

    MergeResult result = workspace.merges().merge(worktree);

    assertThat(result.outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    assertThat(sandbox.tip("main")).isEqualTo(tip);
    assertThat(sandbox.git(sandbox.project, "branch", "--show-current")).isEqualTo("user-branch");
    assertThat(sandbox.project.resolve("README.md")).hasContent("dirty but not on main");
  }

  @Test
  void uncommittedTaskWorkRefusesTheMerge(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 7, "unfinished").worktree();
    sandbox.commit(Path.of(worktree.path()), "work", "src/feature.txt", "feature\n");
    sandbox.write(Path.of(worktree.path()), "src/forgotten.txt", "not committed\n");
    String base = sandbox.tip("main");

    MergeResult result = workspace.merges().merge(worktree);

    assertThat(result.outcome()).isEqualTo(MergeOutcome.REFUSED);
    assertThat(result.message()).contains("src/forgotten.txt");
    assertThat(sandbox.tip("main")).isEqualTo(base);
  }

  @Test
  void syncBringsTheBaseIntoTheTaskAndKeepsUncommittedWork(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 8, "sync").worktree();
    Path work = Path.of(worktree.path());
    String task = sandbox.commit(work, "task work", "src/task.txt", "task\n");
    String base = sandbox.commit(sandbox.project, "base work", "src/base.txt", "base\n");
    sandbox.write(work, "src/app.txt", "agent is editing\n");

    MergeResult result = workspace.merges().sync(worktree);

    assertThat(result.outcome()).isEqualTo(MergeOutcome.MERGE_COMMIT);
    assertThat(sandbox.git(work, "rev-parse", "HEAD^1", "HEAD^2")).isEqualTo(task + "\n" + base);
    assertThat(work.resolve("src/base.txt")).hasContent("base");
    assertThat(work.resolve("src/app.txt")).hasContent("agent is editing");
    assertThat(sandbox.tip("main")).isEqualTo(base);
  }

  @Test
  void aSyncConflictChangesNothingInTheTask(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 9, "sync conflict").worktree();
    Path work = Path.of(worktree.path());
    String task = sandbox.commit(work, "task edit", "src/app.txt", "task version\n");
    sandbox.commit(sandbox.project, "base edit", "src/app.txt", "base version\n");

    MergeResult result = workspace.merges().sync(worktree);

    assertThat(result.outcome()).isEqualTo(MergeOutcome.CONFLICT);
    assertThat(result.conflicts()).containsExactly("src/app.txt");
    assertThat(sandbox.git(work, "rev-parse", "HEAD")).isEqualTo(task);
    assertThat(work.resolve("src/app.txt")).hasContent("task version");
    assertThat(sandbox.git(work, "status", "--porcelain")).isEmpty();
  }
}
