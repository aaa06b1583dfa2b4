package dev.roundhouse.workspace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.diff.ContentSource;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.AbstractTreeIterator;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.eclipse.jgit.util.io.NullOutputStream;
import java.nio.charset.StandardCharsets;
import org.eclipse.jgit.api.errors.CanceledException;
import org.eclipse.jgit.patch.FileHeader;

/**
 * A task's diff against its merge-base, as {@code git diff --numstat <merge-base>} would count it in the task's
 * worktree. Committed changes are a tree-to-tree diff (fast on any repository size); only the paths the
 * worktree's status reports as changed are read from disk, and rename detection (git's 50% similarity) runs
 * over both together. Myers is the default algorithm, as in git, so line counts agree with git's.
 *
 * <p>Not thread-safe: one instance per read.
 */
final class DiffReader implements AutoCloseable {
  private final Repository repository;
  private final ObjectReader reader;
  private final DiffFormatter formatter;
  private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
  private final boolean withHunks;

  DiffReader(Repository repository, boolean withHunks) {
    this.repository = repository;
    this.reader = repository.newObjectReader();
    this.withHunks = withHunks;
    this.formatter = new DiffFormatter(withHunks ? sink : NullOutputStream.INSTANCE);
    formatter.setRepository(repository);
    String algorithm = repository.getConfig().getString("diff", null, "algorithm");
    formatter.setDiffAlgorithm(DiffAlgorithm.getAlgorithm("histogram".equalsIgnoreCase(algorithm)
        ? DiffAlgorithm.SupportedAlgorithm.HISTOGRAM : DiffAlgorithm.SupportedAlgorithm.MYERS));
    formatter.setDetectRenames(false);
  }

  /** @param dirty the worktree's uncommitted paths; empty when there is no worktree to read */
  List<FileChange> read(ObjectId mergeBase, ObjectId head, Set<String> dirty) throws IOException {
    List<DiffEntry> entries = new ArrayList<>();
    for (DiffEntry entry : formatter.scan(tree(mergeBase), tree(head))) {
      if (!dirty.contains(entry.getOldPath()) && !dirty.contains(entry.getNewPath())) {
        entries.add(entry);
      }
    }
    ContentSource newSide = ContentSource.create(reader);
    if (!dirty.isEmpty()) {
      FileTreeIterator workTree = new FileTreeIterator(repository);
      formatter.setPathFilter(PathFilterGroup.createFromStrings(dirty));
      entries.addAll(formatter.scan(tree(mergeBase), workTree));
      formatter.setPathFilter(TreeFilter.ALL);
      // The work tree's files equal HEAD's outside the dirty paths, so it serves both kinds of entry.
      newSide = ContentSource.create(new FileTreeIterator(repository));
    }
    RenameDetector renames = new RenameDetector(repository);
    renames.setRenameScore(50);
    renames.addAll(entries);
    List<DiffEntry> detected;
    try {
      detected = renames.compute(new ContentSource.Pair(ContentSource.create(reader), newSide),
          NullProgressMonitor.INSTANCE);
    } catch (CanceledException e) {
      throw new IOException("rename detection was cancelled", e);
    }
    List<FileChange> files = new ArrayList<>(detected.size());
    for (DiffEntry entry : detected) {
      files.add(change(entry, dirty));
    }
    files.sort(Comparator.comparing(FileChange::path));
    return files;
  }

  private FileChange change(DiffEntry entry, Set<String> dirty) throws IOException {
    var header = formatter.toFileHeader(entry);
    boolean binary = header.getPatchType() != FileHeader.PatchType.UNIFIED;
    int added = 0;
    int removed = 0;
    for (var edit : header.toEditList()) {
      added += edit.getLengthB();
      removed += edit.getLengthA();
    }
    List<Hunk> hunks = withHunks && !binary ? hunks(entry) : List.of();
    String path = entry.getChangeType() == DiffEntry.ChangeType.DELETE ? entry.getOldPath() : entry.getNewPath();
    String oldPath = entry.getChangeType() == DiffEntry.ChangeType.ADD ? entry.getNewPath() : entry.getOldPath();
    boolean uncommitted = dirty.contains(entry.getNewPath()) || dirty.contains(entry.getOldPath());
    return new FileChange(path, oldPath, kind(entry.getChangeType()), binary, binary ? 0 : added,
        binary ? 0 : removed, uncommitted, hunks);
  }

  private List<Hunk> hunks(DiffEntry entry) throws IOException {
    sink.reset();
    formatter.format(entry);
    formatter.flush();
    return Hunks.parse(sink.toString(StandardCharsets.UTF_8));
  }

  private AbstractTreeIterator tree(ObjectId commit) throws IOException {
    if (commit == null) {
      return new EmptyTreeIterator();
    }
    try (RevWalk walk = new RevWalk(reader)) {
      return new CanonicalTreeParser(null, reader, walk.parseCommit(commit).getTree());
    }
  }

  private static ChangeKind kind(DiffEntry.ChangeType type) {
    return switch (type) {
      case ADD, COPY -> ChangeKind.ADDED;
      case MODIFY -> ChangeKind.MODIFIED;
      case DELETE -> ChangeKind.DELETED;
      case RENAME -> ChangeKind.RENAMED;
    };
  }

  @Override
  public void close() {
    formatter.close();
    reader.close();
  }
}
