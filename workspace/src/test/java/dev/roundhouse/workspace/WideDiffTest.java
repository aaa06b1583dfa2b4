package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A wide change (hundreds of files: modified, added, deleted, renamed, binary, through a line-ending filter, and
 * uncommitted work on top) read with JGit in several slices at once, pinned against {@code git diff --numstat} and
 * {@code git diff --name-status} of the same worktree run as processes.
 */
@ExtendWith(SandboxExtension.class)
class WideDiffTest {
  private static final int FILES = 400;

  @Test
  void aWideChangeCountsAsGitCountsIt(Sandbox sandbox) throws IOException {
    Workspace workspace = sandbox.workspace();
    for (int f = 0; f < FILES; f++) {
      sandbox.write(sandbox.project, path(f), text(f, 30, -1));
    }
    Files.createDirectories(sandbox.project.resolve("img"));
    Files.write(sandbox.project.resolve("img/a.bin"), new byte[] {1, 0, 2, 0, 3});
    Files.write(sandbox.project.resolve("img/b.bin"), new byte[] {9, 0, 9});
    sandbox.commit(sandbox.project, "base: " + FILES + " files and two binaries", ".gitattributes", "*.crlf text eol=crlf\n",
        "docs/windows.crlf", "one\r\ntwo\r\n");
    TaskWorktree worktree = sandbox.ensure(workspace, 1, "wide").worktree();
    Path work = Path.of(worktree.path());

    for (int f = 0; f < 240; f++) {
      sandbox.write(work, path(f), text(f, 30 + f % 4, f % 7)); // grows some files, edits one line of most
    }
    for (int f = 240; f < 260; f++) {
      Files.delete(work.resolve(path(f)));
    }
    for (int f = 260; f < 272; f++) {
      Files.createDirectories(work.resolve("moved"));
      Files.move(work.resolve(path(f)), work.resolve("moved/" + f + ".txt"));
      sandbox.write(work, "moved/" + f + ".txt", text(f, 30, f % 2 == 0 ? 3 : -1)); // half renamed exactly, half edited
    }
    for (int f = FILES; f < FILES + 25; f++) {
      sandbox.write(work, path(f), text(f, 5 + f % 3, -1));
    }
    Files.write(work.resolve("img/a.bin"), new byte[] {1, 0, 2, 0, 4});
    Files.write(work.resolve("img/c.bin"), new byte[] {0, 0, 7});
    sandbox.write(work, "docs/windows.crlf", "one\r\ntwo\r\nthree\r\n");
    sandbox.commit(work, "a wide change");
    sandbox.write(work, path(3), text(3, 31, 2), path(300), text(300, 29, 5), "notes/staged.txt", "staged\nwork\n",
        "notes/untracked.txt", "not\nadded\nyet\n");
    sandbox.git(work, "add", "notes/staged.txt");
    Files.delete(work.resolve(path(301)));

    TaskDiff diff = workspace.changes().diff(worktree, false);
    TaskDiff withHunks = workspace.changes().diff(worktree, true);

    String mergeBase = sandbox.git(sandbox.project, "merge-base", "main", worktree.branch());
    Map<String, String> ours = DiffTest.numstat(diff);
    assertThat(ours.remove("notes/untracked.txt")).isEqualTo("3 0"); // git diff leaves untracked files out
    Map<String, String> git = DiffTest.gitNumstat(sandbox, work, mergeBase, null);
    assertThat(ours).hasSize(240 + 20 + 12 + 25 + 2 + 1 + 3).isEqualTo(git);
    assertThat(diff.added()).isEqualTo(sum(git, 0) + 3);
    assertThat(diff.removed()).isEqualTo(sum(git, 1));
    assertThat(renames(diff)).hasSize(12).isEqualTo(gitRenames(sandbox, work, mergeBase));
    assertThat(diff.files()).filteredOn(FileChange::binary).extracting(FileChange::path)
        .containsExactly("img/a.bin", "img/c.bin");
    assertThat(diff.files()).filteredOn(FileChange::uncommitted).extracting(FileChange::path)
        .containsExactly("notes/staged.txt", "notes/untracked.txt", path(3), path(300), path(301));
    assertThat(DiffTest.numstat(withHunks)).isEqualTo(DiffTest.numstat(diff));
    assertThat(withHunks.files()).filteredOn(file -> !file.binary() && file.added() + file.removed() > 0)
        .allSatisfy(file -> assertThat(file.hunks()).isNotEmpty());
  }

  private static String path(int f) {
    return String.format("src/d%02d/f%04d.txt", f / 50, f);
  }

  /** {@code lines} lines; with {@code edited} >= 0, that line says so. */
  private static String text(int f, int lines, int edited) {
    StringBuilder text = new StringBuilder();
    for (int line = 0; line < lines; line++) {
      text.append("file ").append(f).append(" line ").append(line).append(line == edited ? " edited" : "").append('\n');
    }
    return text.toString();
  }

  private static int sum(Map<String, String> numstat, int column) {
    return numstat.values().stream().map(counts -> counts.split(" ")[column]).filter(count -> !count.equals("-"))
        .mapToInt(Integer::parseInt).sum();
  }

  private static Map<String, String> renames(TaskDiff diff) {
    return diff.files().stream().filter(file -> file.kind() == ChangeKind.RENAMED)
        .collect(Collectors.toMap(FileChange::path, FileChange::oldPath, (a, b) -> a, TreeMap::new));
  }

  /** New path to old path of each rename {@code git diff -M --name-status} finds in the work tree against {@code from}. */
  private static Map<String, String> gitRenames(Sandbox sandbox, Path work, String from) {
    String[] fields = sandbox.git(work, "diff", "-M", "--name-status", "-z", from).split("\0");
    Map<String, String> renames = new TreeMap<>();
    for (int i = 0; i < fields.length; i++) {
      if (fields[i].startsWith("R")) {
        renames.put(fields[i + 2], fields[i + 1]);
        i += 2;
      } else if (!fields[i].isEmpty()) {
        i++;
      }
    }
    return renames;
  }
}
