package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Cutting from the freshest base, moving the user's base only forward, and noticing a rewritten base. */
@ExtendWith(SandboxExtension.class)
class RemoteBaseTest {

  @Test
  void aRemoteAheadIsFetchedAndTheLocalBaseFastForwardedWhenClean(Sandbox sandbox) {
    Path colleague = sandbox.colleague();
    String pushed = sandbox.commit(colleague, "colleague's work", "src/theirs.txt", "theirs\n");
    sandbox.git(colleague, "push", "-q", "origin", "main");

    EnsureResult result = sandbox.ensure(sandbox.workspace(), 1, "fresh");

    assertThat(result.worktree().baseCommit()).isEqualTo(pushed);
    assertThat(Path.of(result.worktree().path()).resolve("src/theirs.txt")).exists();
    assertThat(sandbox.tip("main")).isEqualTo(pushed);
    assertThat(sandbox.project.resolve("src/theirs.txt")).hasContent("theirs");
    assertThat(sandbox.git(sandbox.project, "status", "--porcelain")).isEmpty();
  }

  @Test
  void aDirtyMainCheckoutIsLeftAloneAndTheTaskStartsFromTheRemoteTip(Sandbox sandbox) {
    String before = sandbox.tip("main");
    Path colleague = sandbox.colleague();
    String pushed = sandbox.commit(colleague, "colleague's work", "src/theirs.txt", "theirs\n");
    sandbox.git(colleague, "push", "-q", "origin", "main");
    sandbox.write(sandbox.project, "README.md", "my unsaved edit\n");

    EnsureResult result = sandbox.ensure(sandbox.workspace(), 2, "fresh");

    assertThat(result.worktree().baseCommit()).isEqualTo(pushed);
    assertThat(sandbox.tip("main")).isEqualTo(before);
    assertThat(sandbox.project.resolve("README.md")).hasContent("my unsaved edit");
    assertThat(result.notes()).anySatisfy(note -> assertThat(note)
        .contains("main is checked out in " + sandbox.project).contains("uncommitted changes (README.md)"));
  }

  @Test
  void aLocalBaseAheadOfTheRemoteWinsAndIsNeverMovedBack(Sandbox sandbox) {
    String local = sandbox.commit(sandbox.project, "unpushed", "src/local.txt", "mine\n");

    EnsureResult result = sandbox.ensure(sandbox.workspace(), 3, "local");

    assertThat(result.worktree().baseCommit()).isEqualTo(local);
    assertThat(sandbox.tip("main")).isEqualTo(local);
  }

  @Test
  void anUnreachableRemoteFallsBackToTheLocalBaseWithANote(Sandbox sandbox) {
    sandbox.git(sandbox.project, "remote", "set-url", "origin", sandbox.root.resolve("nowhere.git").toString());

    EnsureResult result = sandbox.ensure(sandbox.workspace(), 4, "offline");

    assertThat(result.outcome()).isEqualTo(EnsureOutcome.CREATED);
    assertThat(result.worktree().baseCommit()).isEqualTo(sandbox.tip("main"));
    assertThat(result.notes()).anySatisfy(note -> assertThat(note).contains("could not fetch main from origin"));
  }

  @Test
  void aGitCommandThatOutlivesItsTimeoutIsKilledAndReported(Sandbox sandbox) throws Exception {
    Path script = sandbox.root.resolve("slow-git");
    java.nio.file.Files.writeString(script, "#!/bin/sh\nsleep 30\n");
    script.toFile().setExecutable(true);
    WorkspaceConfig config = sandbox.config().withGit(script.toString(), Sandbox.ISOLATED)
        .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1));

    assertThatThrownBy(() -> sandbox.ensure(sandbox.workspace(config, Clock.systemUTC()), 5, "slow"))
        .isInstanceOf(WorkspaceException.class)
        .hasMessageContaining("timed out after 1 s").hasMessageContaining("was stopped");
    Sandbox.assertNoChildProcesses();
    assertThat(sandbox.worktrees.resolve("web/5")).doesNotExist();
  }

  @Test
  void aForcePushedBaseIsReportedAsRewrittenAndTheTaskIsLeftAlone(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    sandbox.commit(sandbox.project, "shared", "src/shared.txt", "shared\n");
    sandbox.git(sandbox.project, "push", "-q", "origin", "main");
    TaskWorktree worktree = sandbox.ensure(workspace, 6, "rewritten").worktree();
    assertThat(workspace.worktrees().baseRewrite(worktree).rewritten()).isFalse();

    Path colleague = sandbox.colleague();
    sandbox.git(colleague, "reset", "-q", "--hard", "HEAD~1");
    sandbox.commit(colleague, "history rewritten", "src/other.txt", "other\n");
    sandbox.git(colleague, "push", "-q", "--force", "origin", "main");
    sandbox.git(sandbox.project, "fetch", "-q", "origin");
    String taskTip = sandbox.git(Path.of(worktree.path()), "rev-parse", "HEAD");

    BaseRewrite rewrite = workspace.worktrees().baseRewrite(worktree);

    assertThat(rewrite.rewritten()).isTrue();
    assertThat(rewrite.ref()).isEqualTo("origin/main");
    assertThat(rewrite.recordedTip()).isEqualTo(worktree.baseCommit());
    assertThat(rewrite.message()).contains("origin/main was rewritten under task 6");
    assertThat(sandbox.git(Path.of(worktree.path()), "rev-parse", "HEAD")).isEqualTo(taskTip);
  }

  @Test
  void ensuresWithinTheFreshnessWindowFetchOnce(Sandbox sandbox) throws Exception {
    Path counter = sandbox.root.resolve("fetches");
    Path script = sandbox.root.resolve("counting-git");
    java.nio.file.Files.writeString(script, "#!/bin/sh\n[ \"$1\" = fetch ] && echo x >> " + counter + "\nexec git \"$@\"\n");
    script.toFile().setExecutable(true);
    Workspace workspace = sandbox.workspace(sandbox.config().withGit(script.toString(), Sandbox.ISOLATED),
        Clock.fixed(java.time.Instant.parse("2030-01-01T00:00:00Z"), java.time.ZoneOffset.UTC));

    for (int id = 1; id <= 3; id++) {
      sandbox.ensure(workspace, id, "task");
    }

    assertThat(java.nio.file.Files.readAllLines(counter)).hasSize(1);
  }
}
