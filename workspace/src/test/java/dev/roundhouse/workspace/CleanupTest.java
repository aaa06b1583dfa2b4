package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Never lose work: stranded work is named, and a workspace goes only with proof its work landed. */
@ExtendWith(SandboxExtension.class)
class CleanupTest {

  @Test
  void strandedWorkNamesUncommittedFilesAndUnlandedCommits(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 1, "stranded").worktree();
    Path work = Path.of(worktree.path());
    assertThat(workspace.cleanup().stranded(worktree, List.of()).stranded()).isFalse();

    sandbox.write(work, "src/draft.txt", "draft\n");
    Stranded uncommitted = workspace.cleanup().stranded(worktree, List.of());
    assertThat(uncommitted.stranded()).isTrue();
    assertThat(uncommitted.uncommitted()).containsExactly("src/draft.txt");
    assertThat(uncommitted.message()).contains("src/draft.txt");

    String commit = sandbox.commit(work, "draft", "src/draft.txt", "draft\n");
    Stranded committed = workspace.cleanup().stranded(worktree, List.of());
    assertThat(committed.stranded()).isTrue();
    assertThat(committed.commits()).extracting(CommitInfo::id).containsExactly(commit);
    assertThat(committed.message()).contains(commit.substring(0, 10));

    assertThat(workspace.cleanup().stranded(worktree, List.of(commit)).stranded()).isFalse();
  }

  @Test
  void aMissingBranchWithItsFolderStillThereCountsAsStranded(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 9, "doubt").worktree();
    sandbox.git(Path.of(worktree.path()), "checkout", "-q", "--detach");
    sandbox.git(sandbox.project, "branch", "-D", worktree.branch());

    Stranded stranded = workspace.cleanup().stranded(worktree, List.of());

    assertThat(stranded.stranded()).isTrue();
    assertThat(stranded.message()).contains("branch roundhouse/9-doubt of task 9 is missing");
    assertThat(Path.of(worktree.path()).resolve("README.md")).exists();
  }

  @Test
  void reclaimAfterAMergedLocalPullRequestRemovesWorktreeAndBranch(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 2, "pr").worktree();
    sandbox.commit(Path.of(worktree.path()), "work", "src/feature.txt", "feature\n");
    sandbox.commit(sandbox.colleague(), "colleague", "src/other.txt", "other\n");
    sandbox.git(sandbox.root.resolve("colleague"), "push", "-q", "origin", "main");
    LocalForge forge = workspace.localForge(sandbox.remote);
    PullRequest opened = forge.create(new PullRequestDraft(sandbox.project.toString(), "Add feature", "body", "main",
        worktree.branch()));
    assertThat(workspace.cleanup().reclaim(worktree, List.of()).outcome()).isEqualTo(ReclaimOutcome.KEPT);

    PullRequest merged = forge.merge(opened.number());
    ReclaimResult result = workspace.cleanup().reclaim(worktree, List.of(merged.headCommit()));

    assertThat(result.outcome()).isEqualTo(ReclaimOutcome.RECLAIMED);
    assertThat(result.reason()).contains("merged pull request head");
    assertThat(Path.of(worktree.path())).doesNotExist();
    assertThat(sandbox.run(sandbox.project, "rev-parse", "--verify", "refs/heads/" + worktree.branch()).exitCode())
        .isNotZero();
    assertThat(workspace.cleanup().reclaim(worktree, List.of()).outcome()).isEqualTo(ReclaimOutcome.ALREADY_GONE);
    assertThat(workspace.cleanup().stranded(worktree, List.of()).stranded()).isFalse();
  }

  @Test
  void reclaimKeepsWorkThatHasNotLanded(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 3, "unlanded").worktree();
    String commit = sandbox.commit(Path.of(worktree.path()), "work", "a.txt", "a\n");

    ReclaimResult result = workspace.cleanup().reclaim(worktree, List.of("0000000000000000000000000000000000000000"));

    assertThat(result.outcome()).isEqualTo(ReclaimOutcome.KEPT);
    assertThat(result.reason()).contains(commit.substring(0, 10)).contains("not in main");
    assertKept(sandbox, worktree, commit);
  }

  @Test
  void reclaimKeepsALandedWorktreeWithUntrackedFiles(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 4, "untracked").worktree();
    String commit = sandbox.commit(Path.of(worktree.path()), "work", "a.txt", "a\n");
    assertThat(workspace.merges().merge(worktree).outcome()).isEqualTo(MergeOutcome.FAST_FORWARD);
    sandbox.write(Path.of(worktree.path()), "scratch.txt", "keep me\n");

    ReclaimResult result = workspace.cleanup().reclaim(worktree, List.of());

    assertThat(result.outcome()).isEqualTo(ReclaimOutcome.KEPT);
    assertThat(result.reason()).contains("scratch.txt");
    assertKept(sandbox, worktree, commit);
  }

  @Test
  void reclaimKeepsEverythingWhenAGitCommandFails(Sandbox sandbox) throws Exception {
    Path script = sandbox.root.resolve("failing-git");
    Files.writeString(script, "#!/bin/sh\nif [ \"$1 $2\" = \"worktree remove\" ]; then echo 'fatal: disk on fire' >&2;"
        + " exit 128; fi\nexec git \"$@\"\n");
    script.toFile().setExecutable(true);
    Workspace workspace = sandbox.workspace(sandbox.config().withGit(script.toString(), Sandbox.ISOLATED),
        java.time.Clock.systemUTC());
    TaskWorktree worktree = sandbox.ensure(workspace, 5, "failing").worktree();
    String commit = sandbox.commit(Path.of(worktree.path()), "work", "a.txt", "a\n");
    workspace.merges().merge(worktree);

    ReclaimResult result = workspace.cleanup().reclaim(worktree, List.of());

    assertThat(result.outcome()).isEqualTo(ReclaimOutcome.KEPT);
    assertThat(result.reason()).contains("disk on fire").contains("everything was kept");
    assertKept(sandbox, worktree, commit);
  }

  @Test
  void reclaimKeepsEverythingWhileAGitCommandHoldsTheWorktreesIndexLock(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 6, "busy").worktree();
    String commit = sandbox.commit(Path.of(worktree.path()), "work", "a.txt", "a\n");
    workspace.merges().merge(worktree);
    Path admin = Path.of(sandbox.git(Path.of(worktree.path()), "rev-parse", "--path-format=absolute", "--git-dir"));
    Path lock = Files.createFile(admin.resolve("index.lock"));

    ReclaimResult result = workspace.cleanup().reclaim(worktree, List.of());

    assertThat(result.outcome()).isEqualTo(ReclaimOutcome.KEPT);
    assertThat(result.reason()).contains("index.lock");
    Files.delete(lock);
    assertKept(sandbox, worktree, commit);
  }

  @Test
  void reclaimKeepsEverythingWhenTheRepositoryCannotBeRead(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 7, "unreadable").worktree();
    String commit = sandbox.commit(Path.of(worktree.path()), "work", "a.txt", "a\n");
    workspace.merges().merge(worktree);
    TaskWorktree wrongRepository = new TaskWorktree(worktree.project(), worktree.taskId(),
        Files.createDirectories(sandbox.root.resolve("not-a-repo")).toString(), worktree.branch(), worktree.path(),
        worktree.baseBranch(), worktree.baseCommit());

    ReclaimResult result = workspace.cleanup().reclaim(wrongRepository, List.of());

    assertThat(result.outcome()).isEqualTo(ReclaimOutcome.KEPT);
    assertThat(result.reason()).contains("not inside a git repository");
    assertKept(sandbox, worktree, commit);
  }

  @Test
  void aMissingLocalForgeIsAClearErrorAndProvesNothing(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 8, "no forge").worktree();
    String commit = sandbox.commit(Path.of(worktree.path()), "work", "a.txt", "a\n");
    LocalForge forge = workspace.localForge(sandbox.root.resolve("missing.git"));

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> forge.status(sandbox.project.toString(), 1))
        .hasMessageContaining("missing.git is missing").hasMessageContaining("git init --bare");
    assertThat(workspace.cleanup().reclaim(worktree, List.of()).outcome()).isEqualTo(ReclaimOutcome.KEPT);
    assertKept(sandbox, worktree, commit);
  }

  private static void assertKept(Sandbox sandbox, TaskWorktree worktree, String commit) {
    assertThat(Path.of(worktree.path()).resolve(".git")).exists();
    assertThat(sandbox.git(sandbox.project, "rev-parse", "refs/heads/" + worktree.branch())).isEqualTo(commit);
  }
}
