package dev.roundhouse.workspace.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every fail-closed path through the operations that remove ({@code task_reclaim}, {@code workspace_sweep}) removes
 * nothing: an unreadable repository, a git command that fails, a missing remote (the forge's bare repository gone
 * before its merge was seen), an {@code index.lock} held in the task's worktree. Each case first lands the task, so
 * that only the failure stands between it and removal, and ends by curing the failure and reclaiming, which proves it.
 */
class FailClosedTest {
  private Path tools;
  private WorkspaceHub w;

  @AfterEach
  void close() throws IOException {
    if (w != null) {
      w.close();
    }
    if (tools != null) {
      try (var paths = Files.walk(tools)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  @Test
  void anUnreadableRepositoryRemovesNothing() throws IOException {
    open(settings -> settings);
    Kept task = kept(landed("Unreadable"), "landed.txt");
    Path config = w.project.resolve(".git/config");
    String good = Files.readString(config);
    Files.writeString(config, good + "\n[core\n\tthis is not a config line\n");

    assertKeptEverything(task, "");
    assertThat(sweep()).as("the sweep keeps it too").isEqualTo("KEPT");

    Files.writeString(config, good);
    assertReclaimed(task);
  }

  @Test
  void aGitCommandThatFailsRemovesNothing() throws IOException {
    tools = Files.createTempDirectory("roundhouse-failing-git-").toRealPath();
    Path flag = tools.resolve("fail");
    Path git = tools.resolve("git");
    Files.writeString(git, "#!/bin/sh\n"
        + "if [ -e '" + flag + "' ] && [ \"$1\" = worktree ] && [ \"$2\" = remove ]; then\n"
        + "  echo 'fatal: simulated failure of git worktree remove' >&2; exit 128\n"
        + "fi\n"
        + "exec git \"$@\"\n");
    Files.setPosixFilePermissions(git, PosixFilePermissions.fromString("rwxr-xr-x"));
    open(settings -> settings.withGit(git.toString(), WorkspaceHub.ISOLATED));
    Kept task = kept(landed("Failing"), "landed.txt");
    Files.createFile(flag);

    assertKeptEverything(task, "simulated failure of git worktree remove");
    assertThat(sweep()).isEqualTo("KEPT");

    Files.delete(flag);
    assertReclaimed(task);
  }

  @Test
  void aMissingRemoteRemovesNothing() throws IOException {
    open(settings -> settings);
    long id = w.task("web", "Pull request");
    w.turn(id, "pr.txt=p\ncommit: pr");
    assertThat(w.op("create_pr", "task", id).path("pull_request").path("state").asText()).isEqualTo("OPEN");
    Kept task = kept(id, "pr.txt");
    Path moved = w.root.resolve("forge-away.git");
    Files.move(w.forge, moved);

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> w.op("task_pull_requests", "task", id, "refresh", true))
        .hasMessageContaining("forge's repository " + w.forge + " is missing");
    assertThat(w.op("task_pull_requests", "task", id).path("pull_requests").path(0).path("pull_request").path("state").asText())
        .as("as last seen").isEqualTo("OPEN");
    assertKeptEverything(task, "has not landed");
    assertThat(sweep()).isEqualTo("KEPT");

    Files.move(moved, w.forge);
    dev.roundhouse.workspace.Workspace.create(dev.roundhouse.workspace.WorkspaceConfig.defaults(w.worktrees)
        .withGit("git", WorkspaceHub.ISOLATED), java.time.Clock.systemUTC()).localForge(w.forge).merge(1);
    w.op("task_pull_requests", "task", id, "refresh", true);
    assertReclaimed(task);
  }

  @Test
  void anIndexLockHeldInTheWorktreeRemovesNothing() throws IOException {
    open(settings -> settings);
    Kept task = kept(landed("Locked"), "landed.txt");
    Path lock = Path.of(w.git(task.folder(), "rev-parse", "--absolute-git-dir")).resolve("index.lock");
    Files.createFile(lock);

    assertKeptEverything(task, "index.lock");
    assertThat(sweep()).isEqualTo("KEPT");

    Files.delete(lock);
    assertReclaimed(task);
  }

  private void open(java.util.function.UnaryOperator<WorkspaceSettings> configure) {
    w = new WorkspaceHub(configure);
    w.addProject("web", w.project);
  }

  /** A task whose commit is merged into main: nothing but the failure stands between it and removal. */
  private long landed(String title) {
    long task = w.task("web", title);
    w.turn(task, "landed.txt=" + title + "\ncommit: " + title);
    assertThat(w.op("task_merge", "task", task).path("result").path("outcome").asText()).isEqualTo("FAST_FORWARD");
    return task;
  }

  /** The task's worktree folder, branch and tip, read before the failure is made. */
  private record Kept(long task, Path folder, String branch, String tip, String file) {}

  private Kept kept(long task, String file) {
    Path folder = folder(task);
    String branch = w.op("task_workspace", "task", task).path("worktree").path("branch").asText();
    return new Kept(task, folder, branch, w.git(w.project, "rev-parse", "refs/heads/" + branch), file);
  }

  private void assertKeptEverything(Kept kept, String because) throws IOException {
    JsonNode result = w.op("task_reclaim", "task", kept.task()).path("result");

    assertThat(result.path("outcome").asText()).as(result.toString()).isEqualTo("KEPT");
    assertThat(result.path("reason").asText()).contains(because);
    assertThat(kept.folder().resolve(kept.file())).as("the worktree and its files").isRegularFile();
    assertThat(Files.readAllLines(kept.folder().resolve(".git"), java.nio.charset.StandardCharsets.UTF_8).getFirst())
        .as("still a linked worktree").startsWith("gitdir: ");
    assertThat(w.project.resolve(".git/refs/heads").resolve(kept.branch())).as("the branch, at its tip")
        .hasContent(kept.tip() + "\n");
  }

  /** After the cure: the record is still there, and the reclaim now removes the worktree and the branch. */
  private void assertReclaimed(Kept kept) {
    assertThat(w.op("task_workspace", "task", kept.task()).path("worktree").path("path").asText()).as("the record")
        .isEqualTo(kept.folder().toString());
    JsonNode result = w.op("task_reclaim", "task", kept.task()).path("result");
    assertThat(result.path("outcome").asText()).as(result.toString()).isEqualTo("RECLAIMED");
    assertThat(kept.folder()).doesNotExist();
  }

  /** A sweep that removes, with no retention: what it did with the one workspace. */
  private String sweep() {
    JsonNode items = w.op("workspace_sweep", "dry_run", false, "retention_days", 0).path("report").path("items");
    assertThat(items).hasSize(1);
    return items.get(0).path("action").asText();
  }

  private Path folder(long task) {
    return Path.of(w.op("task_workspace", "task", task).path("worktree").path("path").asText());
  }
}
