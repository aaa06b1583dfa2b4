package dev.roundhouse.workspace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.api.Status;

/** JGit's status as a flat list of files. Stateless; thread-safe. */
final class StatusEntries {

  private StatusEntries() {}

  static List<StatusEntry> of(Status status) {
    List<StatusEntry> entries = new ArrayList<>();
    add(entries, status.getAdded(), FileState.ADDED, true);
    add(entries, status.getChanged(), FileState.MODIFIED, true);
    add(entries, status.getRemoved(), FileState.DELETED, true);
    add(entries, status.getModified(), FileState.MODIFIED, false);
    add(entries, status.getMissing(), FileState.DELETED, false);
    add(entries, status.getUntracked(), FileState.UNTRACKED, false);
    add(entries, status.getConflicting(), FileState.CONFLICTING, false);
    entries.sort(Comparator.comparing(StatusEntry::path).thenComparing(StatusEntry::staged));
    return entries;
  }

  private static void add(List<StatusEntry> entries, Set<String> paths, FileState state, boolean staged) {
    paths.forEach(path -> entries.add(new StatusEntry(path, state, staged)));
  }
}
