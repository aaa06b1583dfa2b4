package dev.roundhouse.workspace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of {@code git worktree list --porcelain}. {@code branch} is the short name or null when
 * detached; {@code locked} and {@code prunable} are the reasons git gives, or null.
 *
 * <p>Immutable; thread-safe.
 */
record WorktreeEntry(Path path, String head, String branch, boolean bare, String locked, String prunable) {

  static List<WorktreeEntry> parse(String porcelain) {
    List<WorktreeEntry> entries = new ArrayList<>();
    for (String block : porcelain.split("\n\n")) {
      Path path = null;
      String head = null;
      String branch = null;
      String locked = null;
      String prunable = null;
      boolean bare = false;
      for (String line : block.split("\n")) {
        if (line.startsWith("worktree ")) {
          path = Path.of(line.substring(9));
        } else if (line.startsWith("HEAD ")) {
          head = line.substring(5);
        } else if (line.startsWith("branch ")) {
          branch = line.substring(7).replaceFirst("^refs/heads/", "");
        } else if (line.equals("bare")) {
          bare = true;
        } else if (line.startsWith("locked")) {
          locked = line.length() > 7 ? line.substring(7) : "";
        } else if (line.startsWith("prunable")) {
          prunable = line.length() > 9 ? line.substring(9) : "";
        }
      }
      if (path != null) {
        entries.add(new WorktreeEntry(path, head, branch, bare, locked, prunable));
      }
    }
    return entries;
  }
}
