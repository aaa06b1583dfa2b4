package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SandboxExtension.class)
class WorktreesTest {

  @Test
  void firstEnsureCutsANamedBranchAndWorktreeFromTheBase(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    EnsureResult result = sandbox.ensure(workspace, 7, "Fix the login page!");

    TaskWorktree worktree = result.worktree();
    assertThat(result.outcome()).isEqualTo(EnsureOutcome.CREATED);
    assertThat(worktree.branch()).isEqualTo("roundhouse/7-fix-the-login-page");
    assertThat(Path.of(worktree.path())).isEqualTo(sandbox.worktrees.resolve("web").resolve("7"));
    assertThat(worktree.baseBranch()).isEqualTo("main");
    assertThat(worktree.baseCommit()).isEqualTo(sandbox.tip("main"));
    assertThat(Path.of(worktree.path()).resolve("README.md")).hasContent("hello");
    assertThat(sandbox.git(Path.of(worktree.path()), "branch", "--show-current")).isEqualTo(worktree.branch());

    EnsureResult again = workspace.worktrees().ensure(WorktreeRequest.of(worktree, "A renamed title"));
    assertThat(again.outcome()).isEqualTo(EnsureOutcome.REUSED);
    assertThat(again.worktree()).isEqualTo(worktree);
  }

  @Test
  void twentyTasksEnsuredAtOnceInOneRepositoryAllGetWorkingWorktrees(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<EnsureResult>> futures = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int id = 1; id <= 20; id++) {
        long taskId = id;
        futures.add(threads.submit(() -> {
          start.await();
          return sandbox.ensure(workspace, taskId, "task number " + taskId);
        }));
      }
      start.countDown();
      for (Future<EnsureResult> future : futures) {
        EnsureResult result = future.get(120, TimeUnit.SECONDS);
        assertThat(result.outcome()).isEqualTo(EnsureOutcome.CREATED);
        assertThat(sandbox.git(Path.of(result.worktree().path()), "status", "--porcelain")).isEmpty();
      }
    }
    assertThat(sandbox.git(sandbox.project, "worktree", "list", "--porcelain").lines()
        .filter(line -> line.startsWith("branch refs/heads/roundhouse/"))).hasSize(20);
    assertThat(((Engine) workspace).locks.heldByCurrentThread()).isFalse();
  }

  @Test
  void twoTasksWritingTheSamePathDoNotCollide(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    Path first = Path.of(sandbox.ensure(workspace, 1, "first").worktree().path());
    Path second = Path.of(sandbox.ensure(workspace, 2, "second").worktree().path());

    sandbox.commit(first, "first writes", "src/shared.txt", "from task one\n");
    sandbox.write(second, "src/shared.txt", "from task two\n");

    assertThat(first.resolve("src/shared.txt")).hasContent("from task one");
    assertThat(second.resolve("src/shared.txt")).hasContent("from task two");
    assertThat(sandbox.project.resolve("src/shared.txt")).doesNotExist();
    assertThat(sandbox.git(sandbox.project, "status", "--porcelain")).isEmpty();
  }

  @Test
  void aFolderOutsideAnyRepositoryIsReportedCleanly(Sandbox sandbox) throws Exception {
    Path plain = Files.createDirectories(sandbox.root.resolve("plain"));
    Workspace workspace = sandbox.workspace();

    assertThat(workspace.worktrees().isRepository(plain.toString())).isFalse();
    assertThat(workspace.worktrees().isRepository(sandbox.project.toString())).isTrue();
    assertThatThrownBy(() -> workspace.worktrees().ensure(WorktreeRequest.of("plain", plain.toString(), 1, "x")))
        .isInstanceOf(NotARepositoryException.class)
        .hasMessageContaining(plain.toString());
  }

  @Test
  void aProjectInASubFolderRunsInThatSubFolderOfTheWorktree(Sandbox sandbox) {
    EnsureResult result = sandbox.workspace().worktrees()
        .ensure(WorktreeRequest.of("web", sandbox.project.resolve("src").toString(), 3, "sub"));

    assertThat(Path.of(result.workingDirectory())).isEqualTo(Path.of(result.worktree().path()).resolve("src"));
    assertThat(result.worktree().repository()).isEqualTo(sandbox.project.toString());
  }

  @Test
  void invalidBranchPrefixIsAClearError(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace(sandbox.config().withBranchPrefix("bad..prefix/"), java.time.Clock.systemUTC());

    assertThatThrownBy(() -> sandbox.ensure(workspace, 4, "x"))
        .isInstanceOf(WorkspaceException.class)
        .hasMessageContaining("bad..prefix/4-x").hasMessageContaining("not a valid git branch name");
  }

  @Test
  void slugsAreShortLowerCaseAsciiWords() {
    assertThat(BranchNames.branch("roundhouse/", 12, "Fix the  Login page!")).isEqualTo("roundhouse/12-fix-the-login-page");
    assertThat(BranchNames.branch("rh/", 3, "Café déjà vu")).isEqualTo("rh/3-cafe-deja-vu");
    assertThat(BranchNames.branch("rh/", 5, "!!!")).isEqualTo("rh/5");
    assertThat(BranchNames.slug("a very long title that goes on and on past the forty character limit"))
        .hasSizeLessThanOrEqualTo(40).doesNotEndWith("-").startsWith("a-very-long-title");
    assertThat(BranchNames.folder("my project/../x")).isEqualTo("my-project-..-x");
  }
}
