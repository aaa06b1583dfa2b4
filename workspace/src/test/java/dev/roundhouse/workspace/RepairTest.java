package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Self-healing: what a hand or a crash leaves behind is repaired from the branch, or refused by name. */
@ExtendWith(SandboxExtension.class)
class RepairTest {

  @Test
  void aWorktreeFolderDeletedByHandIsRestoredFromItsBranch(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 5, "keep me").worktree();
    Path path = Path.of(worktree.path());
    String commit = sandbox.commit(path, "agent work", "src/work.txt", "done\n");
    deleteTree(path);

    EnsureResult repaired = workspace.worktrees().ensure(WorktreeRequest.of(worktree, "keep me"));

    assertThat(repaired.outcome()).isEqualTo(EnsureOutcome.REPAIRED);
    assertThat(repaired.worktree()).isEqualTo(worktree);
    assertThat(path.resolve("src/work.txt")).hasContent("done");
    assertThat(sandbox.git(path, "rev-parse", "HEAD")).isEqualTo(commit);
  }

  @Test
  void aWorktreeHalfCreatedWhenGitWasKilledIsRebuilt(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 6, "crash").worktree();
    Path path = Path.of(worktree.path());
    // What `git worktree add` leaves when killed mid-checkout: its "initializing" lock and a partial checkout.
    Path admin = Path.of(sandbox.git(path, "rev-parse", "--path-format=absolute", "--git-dir"));
    Files.writeString(admin.resolve("locked"), "initializing");
    Files.delete(path.resolve("README.md"));

    EnsureResult repaired = workspace.worktrees().ensure(WorktreeRequest.of(worktree, "crash"));

    assertThat(repaired.outcome()).isEqualTo(EnsureOutcome.REPAIRED);
    assertThat(path.resolve("README.md")).hasContent("hello");
    assertThat(sandbox.git(sandbox.project, "worktree", "list", "--porcelain")).doesNotContain("locked");
  }

  @Test
  void aStaleRegistrationLeftAfterACrashIsClearedOnTheNextEnsure(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    // The branch and the .git/worktrees/<name> entry exist, the folder never got its files (hub killed).
    String branch = "roundhouse/8-stale";
    sandbox.git(sandbox.project, "worktree", "add", "-q", "-b", branch,
        sandbox.worktrees.resolve("web/8").toString());
    deleteTree(sandbox.worktrees.resolve("web/8"));
    assertThat(sandbox.project.resolve(".git/worktrees/8")).exists();

    EnsureResult repaired = sandbox.ensure(workspace, 8, "stale");

    assertThat(repaired.outcome()).isEqualTo(EnsureOutcome.REPAIRED);
    assertThat(repaired.worktree().branch()).isEqualTo(branch);
    assertThat(sandbox.worktrees.resolve("web/8/README.md")).exists();
  }

  @Test
  void aDeletedBranchIsAClearErrorNamingIt(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 9, "gone").worktree();
    sandbox.git(sandbox.project, "worktree", "remove", worktree.path());
    sandbox.git(sandbox.project, "branch", "-D", worktree.branch());

    assertThatThrownBy(() -> workspace.worktrees().ensure(WorktreeRequest.of(worktree, "gone")))
        .isInstanceOf(MissingBranchException.class)
        .hasMessageContaining("roundhouse/9-gone").hasMessageContaining(sandbox.project.toString());
  }

  @Test
  void aForeignFolderInTheWayIsRefusedAndKept(Sandbox sandbox) {
    sandbox.write(sandbox.worktrees.resolve("web/10"), "notes.txt", "mine\n");

    assertThatThrownBy(() -> sandbox.ensure(sandbox.workspace(), 10, "blocked"))
        .isInstanceOf(WorkspaceException.class)
        .hasMessageContaining("is in the way").hasMessageContaining("web/10");
    assertThat(sandbox.worktrees.resolve("web/10/notes.txt")).hasContent("mine");
  }

  @Test
  void theTaskBranchCheckedOutInTheMainCheckoutIsRefused(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 11, "moved").worktree();
    sandbox.git(sandbox.project, "worktree", "remove", worktree.path());
    sandbox.git(sandbox.project, "checkout", "-q", worktree.branch());

    assertThatThrownBy(() -> workspace.worktrees().ensure(WorktreeRequest.of(worktree, "moved")))
        .hasMessageContaining("is checked out in " + sandbox.project);
  }

  static void deleteTree(Path path) throws Exception {
    try (Stream<Path> paths = Files.walk(path)) {
      paths.sorted(Comparator.reverseOrder()).forEach(each -> each.toFile().delete());
    }
  }
}
