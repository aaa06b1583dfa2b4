package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The task's diff, status and commits, checked against what the git CLI says about the same range. */
@ExtendWith(SandboxExtension.class)
class DiffTest {

  @Test
  void committedDiffMatchesGitNumstatOfTheSameRange(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 1, "diff").worktree();
    Path work = Path.of(worktree.path());
    sandbox.commit(sandbox.project, "base moves on", "src/base-only.txt", "base\n");
    sandbox.commit(work, "edits", "src/app.txt", "one\n2\nthree\nfour\n", "docs/new.md", "# new\n\ntext\n");
    sandbox.write(work, "notes/long.txt", "line a\nline b\nline c\nline d\nline e\nline f\nline g\nline h\n");
    sandbox.commit(work, "long file", "docs/new.md", "# new\n\ntext\n");
    sandbox.git(work, "rm", "-q", "README.md");
    sandbox.git(work, "mv", "notes/long.txt", "notes/renamed.txt");
    sandbox.write(work, "notes/renamed.txt", "line a\nline b\nline c\nline d\nline e\nline f\nline g\nline H\n");
    Files.write(work.resolve("logo.bin"), new byte[] {0, 1, 2, 3, 0, 5});
    sandbox.commit(work, "delete, rename, binary");

    TaskDiff diff = workspace.changes().diff(worktree, true);

    String mergeBase = sandbox.git(sandbox.project, "merge-base", "main", worktree.branch());
    assertThat(diff.mergeBase()).isEqualTo(mergeBase);
    assertThat(numstat(diff)).isEqualTo(gitNumstat(sandbox, sandbox.project, mergeBase, worktree.branch()));
    assertThat(diff.files()).extracting(FileChange::path, FileChange::kind).contains(
        org.assertj.core.groups.Tuple.tuple("README.md", ChangeKind.DELETED),
        org.assertj.core.groups.Tuple.tuple("docs/new.md", ChangeKind.ADDED),
        org.assertj.core.groups.Tuple.tuple("notes/renamed.txt", ChangeKind.ADDED),
        org.assertj.core.groups.Tuple.tuple("src/app.txt", ChangeKind.MODIFIED));
    assertThat(diff.files()).filteredOn(FileChange::binary).extracting(FileChange::path).containsExactly("logo.bin");
    assertThat(diff.files()).noneMatch(FileChange::uncommitted);
    FileChange app = file(diff, "src/app.txt");
    assertThat(app.hunks()).hasSize(1);
    assertThat(app.hunks().getFirst().text()).startsWith("@@ -1,3 +1,4 @@").contains("-two\n", "+2\n", "+four\n");
  }

  @Test
  void aRenameWithinTheTaskIsDetectedAsGitDoes(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 2, "rename").worktree();
    Path work = Path.of(worktree.path());
    sandbox.git(work, "mv", "src/app.txt", "src/main.txt");
    sandbox.commit(work, "rename");

    TaskDiff diff = workspace.changes().diff(worktree, false);

    assertThat(diff.files()).singleElement().satisfies(file -> {
      assertThat(file.kind()).isEqualTo(ChangeKind.RENAMED);
      assertThat(file.oldPath()).isEqualTo("src/app.txt");
      assertThat(file.path()).isEqualTo("src/main.txt");
    });
    assertThat(numstat(diff)).isEqualTo(gitNumstat(sandbox, sandbox.project, diff.mergeBase(), worktree.branch()));
  }

  @Test
  void uncommittedWorkIsIncludedMarkedAndCountedAsGitDiffCountsIt(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 3, "uncommitted").worktree();
    Path work = Path.of(worktree.path());
    sandbox.commit(work, "committed", "src/app.txt", "one\ntwo\nthree\nfour\n", "src/done.txt", "done\n");
    sandbox.write(work, "src/app.txt", "zero\none\ntwo\nthree\nfour\n", "src/staged.txt", "staged\n");
    sandbox.git(work, "add", "src/staged.txt");
    sandbox.write(work, "src/untracked.txt", "new\nfile\n");

    TaskDiff diff = workspace.changes().diff(worktree, true);

    Map<String, String> tracked = new TreeMap<>(numstat(diff));
    tracked.remove("src/untracked.txt");
    assertThat(tracked).isEqualTo(gitNumstat(sandbox, work, diff.mergeBase(), null));
    assertThat(file(diff, "src/app.txt").uncommitted()).isTrue();
    assertThat(file(diff, "src/staged.txt").uncommitted()).isTrue();
    assertThat(file(diff, "src/done.txt").uncommitted()).isFalse();
    FileChange untracked = file(diff, "src/untracked.txt");
    assertThat(untracked.kind()).isEqualTo(ChangeKind.ADDED);
    assertThat(untracked.uncommitted()).isTrue();
    assertThat(untracked.added()).isEqualTo(2);
  }

  @Test
  void commitsStatusAndMergeBaseAgreeWithGit(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 4, "log").worktree();
    Path work = Path.of(worktree.path());
    String first = sandbox.commit(work, "first", "a.txt", "a\n");
    String second = sandbox.commit(work, "second", "b.txt", "b\n");
    sandbox.commit(sandbox.project, "base", "c.txt", "c\n");
    sandbox.write(work, "a.txt", "changed\n", "d.txt", "untracked\n");

    TaskCommits commits = workspace.changes().commits(worktree);
    WorktreeStatus status = workspace.changes().status(worktree);

    assertThat(commits.commits()).extracting(CommitInfo::id).containsExactly(second, first);
    assertThat(commits.commits().getFirst().subject()).isEqualTo("second");
    assertThat(commits.ahead()).isEqualTo(2);
    assertThat(commits.behind()).isEqualTo(1);
    assertThat(commits.mergeBase()).isEqualTo(sandbox.git(sandbox.project, "merge-base", "main", worktree.branch()));
    assertThat(workspace.changes().mergeBase(worktree)).isEqualTo(commits.mergeBase());
    assertThat(status.exists()).isTrue();
    assertThat(status.branch()).isEqualTo(worktree.branch());
    assertThat(status.clean()).isFalse();
    assertThat(status.entries()).containsExactly(new StatusEntry("a.txt", FileState.MODIFIED, false),
        new StatusEntry("d.txt", FileState.UNTRACKED, false));
    assertThat(status.ahead()).isEqualTo(2);
    assertThat(status.behind()).isEqualTo(1);
  }

  @Test
  void aDeletedWorktreeFolderStillHasItsBranchDiff(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 5, "gone").worktree();
    sandbox.commit(Path.of(worktree.path()), "work", "a.txt", "a\n");
    RepairTest.deleteTree(Path.of(worktree.path()));

    assertThat(workspace.changes().diff(worktree, false).files()).extracting(FileChange::path).containsExactly("a.txt");
    assertThat(workspace.changes().status(worktree).exists()).isFalse();
  }

  /** Counts kept from an earlier read (the diff keeps them by contents) must never show through a change. */
  @Test
  void readingAgainAfterEachKindOfChangeStillMatchesGit(Sandbox sandbox) throws Exception {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 6, "again").worktree();
    Path work = Path.of(worktree.path());
    sandbox.commit(work, "first", "src/app.txt", "one\ntwo\nthree\n", "data/table.txt", "a\nb\n");
    TaskDiff first = workspace.changes().diff(worktree, false);
    assertThat(workspace.changes().diff(worktree, false)).isEqualTo(first);

    // the same file committed again with other contents
    sandbox.commit(work, "second", "src/app.txt", "one\n2\nthree\nfour\nfive\n");
    TaskDiff second = workspace.changes().diff(worktree, false);
    assertThat(numstat(second)).isEqualTo(gitNumstat(sandbox, work, second.mergeBase(), worktree.branch()));
    assertThat(file(second, "src/app.txt").added()).isEqualTo(3); // 2, four, five

    // an uncommitted edit, then the same edit undone: the committed counts come back
    sandbox.write(work, "src/app.txt", "one\n");
    TaskDiff dirty = workspace.changes().diff(worktree, false);
    assertThat(file(dirty, "src/app.txt").uncommitted()).isTrue();
    assertThat(numstat(dirty)).isEqualTo(gitNumstat(sandbox, work, dirty.mergeBase(), null));
    sandbox.write(work, "src/app.txt", "one\n2\nthree\nfour\nfive\n");
    assertThat(workspace.changes().diff(worktree, false)).isEqualTo(second);

    // an attribute now marks a file binary: same contents, same paths, other answer
    sandbox.commit(work, "attributes", ".gitattributes", "*.txt binary\n");
    TaskDiff binary = workspace.changes().diff(worktree, false);
    assertThat(file(binary, "data/table.txt").binary()).isTrue();
    assertThat(numstat(binary)).isEqualTo(gitNumstat(sandbox, work, binary.mergeBase(), worktree.branch()));

    // hunks are still made on request
    assertThat(file(workspace.changes().diff(worktree, true), ".gitattributes").hunks()).hasSize(1);
  }

  @Test
  void submodulePointersEmptyFilesLostNewlinesAndModeChangesCountAsGitCountsThem(Sandbox sandbox) {
    Workspace workspace = sandbox.workspace();
    TaskWorktree worktree = sandbox.ensure(workspace, 4, "edges").worktree();
    Path work = Path.of(worktree.path());
    // staged by hand: "add -A" would drop a submodule pointer whose folder is not there
    String first = sandbox.git(work, "rev-parse", "HEAD");
    sandbox.git(work, "update-index", "--add", "--cacheinfo", "160000," + first + ",vendor/lib");
    sandbox.write(work, "notes/tail.txt", "a\nb\n");
    sandbox.git(work, "add", "notes/tail.txt");
    sandbox.git(work, "commit", "-q", "-m", "a submodule pointer, a file to lose its newline");
    String second = sandbox.git(work, "rev-parse", "HEAD");
    sandbox.git(work, "update-index", "--cacheinfo", "160000," + second + ",vendor/lib");
    sandbox.write(work, "notes/tail.txt", "a\nb", "empty.txt", "", "README.md", "hello");
    sandbox.git(work, "add", "notes/tail.txt", "empty.txt", "README.md");
    sandbox.git(work, "update-index", "--chmod=+x", "src/app.txt");
    sandbox.git(work, "commit", "-q", "-m", "pointer moved, newline lost, an empty file, a mode change");
    // the worktree as a checkout leaves it: the file executable, the submodule's folder there and not populated
    work.resolve("src/app.txt").toFile().setExecutable(true);
    work.resolve("vendor/lib").toFile().mkdirs();

    TaskDiff diff = workspace.changes().diff(worktree, false);

    assertThat(diff.files()).noneMatch(FileChange::uncommitted);
    assertThat(numstat(diff)).isEqualTo(gitNumstat(sandbox, sandbox.project, diff.mergeBase(), worktree.branch()))
        .isEqualTo(gitNumstat(sandbox, work, diff.mergeBase(), null))
        .containsEntry("vendor/lib", "1 0").containsEntry("notes/tail.txt", "2 0").containsEntry("empty.txt", "0 0")
        .containsEntry("src/app.txt", "0 0").containsEntry("README.md", "1 1");
  }

  private static FileChange file(TaskDiff diff, String path) {
    return diff.files().stream().filter(file -> file.path().equals(path)).findFirst().orElseThrow();
  }

  /** Our diff as numstat lines keyed by path: "added removed" or "- -" for binaries. */
  static Map<String, String> numstat(TaskDiff diff) {
    return diff.files().stream().collect(Collectors.toMap(FileChange::path,
        file -> file.binary() ? "- -" : file.added() + " " + file.removed(), (a, b) -> a, TreeMap::new));
  }

  /** {@code git diff --numstat -z} of the range (or of the work tree against {@code from}), keyed by new path. */
  static Map<String, String> gitNumstat(Sandbox sandbox, Path directory, String from, String to) {
    String out = to == null ? sandbox.git(directory, "diff", "--numstat", "-z", "-M", from)
        : sandbox.git(directory, "diff", "--numstat", "-z", "-M", from, to);
    Map<String, String> stats = new TreeMap<>();
    String[] fields = out.split("\0");
    for (int i = 0; i < fields.length; i++) {
      if (fields[i].isEmpty()) {
        continue;
      }
      String[] parts = fields[i].split("\t", -1);
      String counts = parts[0] + " " + parts[1];
      if (parts[2].isEmpty()) {
        i += 2;
        stats.put(fields[i], counts);
      } else {
        stats.put(parts[2], counts);
      }
    }
    return stats;
  }
}
