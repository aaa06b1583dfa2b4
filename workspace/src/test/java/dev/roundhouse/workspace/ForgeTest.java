package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SandboxExtension.class)
class ForgeTest {

  @Test
  void theLocalForgePushesRecordsAndMergesAPullRequest(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 1, "forge").worktree();
    String tip = sandbox.commit(Path.of(worktree.path()), "work", "src/feature.txt", "feature\n");
    Path colleague = sandbox.colleague();
    sandbox.commit(colleague, "moves main", "src/other.txt", "other\n");
    sandbox.git(colleague, "push", "-q", "origin", "main");
    LocalForge forge = workspace.localForge(sandbox.remote);

    PullRequest opened = forge.create(new PullRequestDraft(sandbox.project.toString(), "Add feature", "Why it helps",
        "main", worktree.branch()));

    assertThat(opened.number()).isEqualTo(1);
    assertThat(opened.state()).isEqualTo(PullRequestState.OPEN);
    assertThat(opened.headCommit()).isEqualTo(tip);
    assertThat(sandbox.root.resolve("origin.git.prs.json")).content().contains("\"title\" : \"Add feature\"");
    assertThat(forge.status(sandbox.project.toString(), 1).state()).isEqualTo(PullRequestState.OPEN);

    PullRequest merged = forge.merge(1);

    assertThat(merged.state()).isEqualTo(PullRequestState.MERGED);
    assertThat(forge.status(sandbox.project.toString(), 1).state()).isEqualTo(PullRequestState.MERGED);
    String remoteMain = sandbox.git(sandbox.remote, "rev-parse", "main");
    assertThat(sandbox.git(sandbox.remote, "rev-parse", "main^2")).isEqualTo(tip);
    // The bare repository has no identity of its own: the merge commit is the configured fallback's.
    assertThat(sandbox.git(sandbox.remote, "log", "-1", "--format=%an <%ae>", remoteMain))
        .isEqualTo("Roundhouse <roundhouse@localhost>");
    assertThatThrownBy(() -> forge.close(1)).hasMessageContaining("is already merged");
  }

  @Test
  void theGithubForgeSaysWhatToInstallWhenGhIsAbsent(Sandbox sandbox) {
    Forge forge = sandbox.workspace().githubForge(sandbox.root.resolve("no-such-gh").toString());

    assertThatThrownBy(() -> forge.create(new PullRequestDraft(sandbox.project.toString(), "t", "b", "main", "x")))
        .isInstanceOf(WorkspaceException.class)
        .hasMessageContaining("is not installed or not on PATH")
        .hasMessageContaining("https://cli.github.com")
        .hasMessageContaining(sandbox.project.toString());
    assertThatThrownBy(() -> forge.status(sandbox.project.toString(), 3))
        .hasMessageContaining("gh auth login");
  }

  @Test
  void ghPullRequestJsonIsRead() throws Exception {
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree("""
        {"number": 12, "url": "https://github.com/o/r/pull/12", "title": "T", "baseRefName": "main",
         "headRefName": "roundhouse/1-x", "headRefOid": "abc", "state": "MERGED",
         "statusCheckRollup": [{"__typename": "CheckRun", "name": "build", "status": "COMPLETED",
           "conclusion": "SUCCESS"}, {"__typename": "StatusContext", "context": "ci/legacy", "state": "PENDING"}]}
        """);

    PullRequest pr = GhForge.parse(json);

    assertThat(pr.state()).isEqualTo(PullRequestState.MERGED);
    assertThat(pr.checks()).containsExactly(new CheckRun("build", "completed", "success"),
        new CheckRun("ci/legacy", "completed", "pending"));
  }
}
