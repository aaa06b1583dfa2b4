package dev.roundhouse.workspace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.eclipse.jgit.api.errors.CanceledException;
import org.eclipse.jgit.diff.ContentSource;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.RenameDetector;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.AbstractTreeIterator;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.eclipse.jgit.util.io.NullOutputStream;

/**
 * A task's diff against its merge-base, as {@code git diff --numstat <merge-base>} would count it in the task's
 * worktree. Committed changes are a tree-to-tree diff (fast on any repository size); only the paths the
 * worktree's status reports as changed are read from disk, and rename detection (git's 50% similarity) runs
 * over both together.
 *
 * <p>The worktree's status is read on another thread meanwhile; until it is known, the committed files modified in
 * place (which rename detection leaves alone) are already counted, on a virtual thread of their own, and those the
 * status then reports changed again are dropped for the worktree's version.
 *
 * <p>The task's side of each file is read from the worktree when the file there is byte for byte the blob
 * ({@link WorktreeBlobs}); each file is then counted ({@link FileCounter}). A wide diff is counted in
 * {@code slices} slices at once, the first on the caller's thread and each other on a virtual thread of its own
 * ({@code workspace-diff}), each with its own reader.
 *
 * <p>Not thread-safe: one instance per read.
 */
final class DiffReader implements AutoCloseable {
  /** Fewer files than this a slice are counted on the caller's thread alone: a thread costs more than it saves. */
  static final int SLICE_MIN = 64;

  private final Repository repository;
  private final Path worktree;
  private final ObjectReader reader;
  private final DiffFormatter scanner;
  private final boolean withHunks;
  private final int slices;
  private final CountCache cache;

  /**
   * @param repository the worktree's repository, or the main one when the worktree is gone
   * @param worktree   the task's worktree folder, or null when it is gone
   * @param slices     at most this many slices are counted at once
   * @param cache      files counted before
   */
  DiffReader(Repository repository, Path worktree, boolean withHunks, int slices, CountCache cache) {
    this.repository = repository;
    this.cache = cache;
    this.worktree = worktree;
    this.reader = repository.newObjectReader();
    this.withHunks = withHunks;
    this.slices = Math.max(1, slices);
    this.scanner = new DiffFormatter(NullOutputStream.INSTANCE);
    scanner.setRepository(repository);
    FileCounter.configure(scanner, repository);
  }

  /**
   * @param dirtyPaths the worktree's uncommitted paths (empty when there is no worktree to read), found meanwhile on
   *     another thread: the committed walk, and the counts of the committed files that were modified in place (rename
   *     detection never pairs those), run while the worktree's status is read
   */
  List<FileChange> read(ObjectId mergeBase, ObjectId head, Future<Set<String>> dirtyPaths) throws IOException {
    List<DiffEntry> committed = committed(mergeBase, head);
    List<DiffEntry> modified = new ArrayList<>();
    List<DiffEntry> entries = new ArrayList<>();
    for (DiffEntry entry : committed) {
      (modifiedInPlace(entry) ? modified : entries).add(entry);
    }
    FutureTask<List<FileChange>> early = null;
    if (modified.size() >= SLICE_MIN) {
      Map<ObjectId, String> sides = newSides(modified);
      FutureTask<List<FileChange>> task = new FutureTask<>(() -> count(modified, Set.of(), blobs(sides, null)));
      Thread.ofVirtual().name("workspace-diff").start(task);
      early = task;
    } else {
      entries.addAll(modified);
    }
    try {
      Set<String> dirty = join(dirtyPaths, "reading the worktree's status");
      List<FileChange> files = readRest(mergeBase, entries, dirty);
      if (early != null) {
        // a committed file changed again in the worktree was counted above against the worktree instead
        for (FileChange file : join(early, "counting the diff")) {
          if (!dirty.contains(file.path())) {
            files.add(file);
          }
        }
        early = null;
      }
      files.sort(Comparator.comparing(FileChange::path));
      return files;
    } finally {
      if (early != null) {
        awaitQuietly(early); // no slice outlives the read, even a failed one
      }
    }
  }

  /** A modification that keeps the file's type: rename detection leaves it as it is (it has no break score). */
  private static boolean modifiedInPlace(DiffEntry entry) {
    return entry.getChangeType() == DiffEntry.ChangeType.MODIFY
        && (entry.getOldMode().getBits() & FileMode.TYPE_MASK) == (entry.getNewMode().getBits() & FileMode.TYPE_MASK);
  }

  /** The committed entries not changed again in the worktree, plus the worktree's changes: renames, then counts. */
  private List<FileChange> readRest(ObjectId mergeBase, List<DiffEntry> committed, Set<String> dirty) throws IOException {
    List<DiffEntry> entries = new ArrayList<>();
    for (DiffEntry entry : committed) {
      if (!dirty.contains(entry.getOldPath()) && !dirty.contains(entry.getNewPath())) {
        entries.add(entry);
      }
    }
    ContentSource filtered = null;
    if (!dirty.isEmpty()) {
      scanner.setPathFilter(PathFilterGroup.createFromStrings(dirty));
      entries.addAll(scanner.scan(tree(mergeBase), new FileTreeIterator(repository)));
      scanner.setPathFilter(TreeFilter.ALL);
      filtered = ContentSource.create(new FileTreeIterator(repository));
    }
    Map<ObjectId, String> newSides = newSides(entries);
    List<DiffEntry> detected;
    try (ObjectReader blobs = blobs(newSides, filtered)) {
      detected = renames(entries, blobs);
    }
    List<List<DiffEntry>> parts = slices(detected, dirty, Math.min(slices, Math.max(1, detected.size() / SLICE_MIN)));
    List<FutureTask<List<FileChange>>> others = new ArrayList<>();
    for (List<DiffEntry> part : parts.subList(1, parts.size())) {
      FutureTask<List<FileChange>> task = new FutureTask<>(() -> count(part, dirty, blobs(newSides, null)));
      Thread.ofVirtual().name("workspace-diff").start(task);
      others.add(task);
    }
    List<FileChange> files = new ArrayList<>(detected.size());
    try {
      files.addAll(count(parts.getFirst(), dirty, blobs(newSides, filtered)));
    } catch (IOException | RuntimeException e) {
      others.forEach(DiffReader::awaitQuietly); // no slice outlives the read, even a failed one
      throw e;
    }
    for (FutureTask<List<FileChange>> other : others) {
      files.addAll(join(other, "counting the diff"));
    }
    return files;
  }

  /**
   * A reader of the task's side from the worktree, else of the object store; {@code filtered} serves the blobs that
   * exist only in the worktree (one slice reads those: the iterator behind it is not thread-safe).
   */
  private ObjectReader blobs(Map<ObjectId, String> newSides, ContentSource filtered) {
    return worktree == null ? repository.newObjectReader()
        : new WorktreeBlobs(repository.newObjectReader(), worktree, newSides, filtered);
  }

  private List<FileChange> count(List<DiffEntry> entries, Set<String> dirty, ObjectReader blobs) throws IOException {
    try (blobs; FileCounter counter = new FileCounter(repository, blobs, withHunks, cache)) {
      List<FileChange> files = new ArrayList<>(entries.size());
      for (DiffEntry entry : entries) {
        files.add(counter.count(entry, dirty));
      }
      return files;
    }
  }

  /**
   * {@code count} slices: the uncommitted files all in the first (the only one that reads through the repository's
   * filters), the others dealt round, so files the worktree holds and files it does not are shared alike.
   */
  private static List<List<DiffEntry>> slices(List<DiffEntry> entries, Set<String> dirty, int count) {
    List<List<DiffEntry>> slices = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      slices.add(new ArrayList<>(entries.size() / count + 1));
    }
    int next = 0;
    for (DiffEntry entry : entries) {
      if (dirty.contains(entry.getNewPath()) || dirty.contains(entry.getOldPath())) {
        slices.getFirst().add(entry);
      } else {
        slices.get(next++ % count).add(entry);
      }
    }
    return slices;
  }

  /** The task's result; what it threw is rethrown as it was (unchecked or an IOException), else in an IOException. */
  private static <T> T join(Future<T> task, String what) throws IOException {
    try {
      return task.get();
    } catch (InterruptedException e) {
      task.cancel(true);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while " + what, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IOException("failed while " + what + ": " + e.getCause().getMessage(), e.getCause());
    }
  }

  private static void awaitQuietly(FutureTask<List<FileChange>> task) {
    try {
      task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // the first failure is the one reported
    }
  }

  /** The path of each blob on the task's side, where the worktree may hold it. */
  private static Map<ObjectId, String> newSides(List<DiffEntry> entries) {
    Map<ObjectId, String> paths = new HashMap<>();
    for (DiffEntry entry : entries) {
      if (entry.getChangeType() != DiffEntry.ChangeType.DELETE && entry.getNewMode().getObjectType() == Constants.OBJ_BLOB
          && entry.getNewMode() != FileMode.SYMLINK && entry.getNewId().isComplete()) {
        paths.putIfAbsent(entry.getNewId().toObjectId(), entry.getNewPath());
      }
    }
    return paths;
  }

  private List<DiffEntry> renames(List<DiffEntry> entries, ObjectReader blobs) throws IOException {
    RenameDetector renames = new RenameDetector(repository);
    renames.setRenameScore(50);
    renames.addAll(entries);
    ContentSource source = ContentSource.create(blobs);
    try {
      return renames.compute(new ContentSource.Pair(source, source), NullProgressMonitor.INSTANCE);
    } catch (CanceledException e) {
      throw new IOException("rename detection was cancelled", e);
    }
  }

  /**
   * The files that differ between two commits. The walk is the diff formatter's, but reads attributes (a path marked
   * {@code binary} or {@code -diff}) from the task's tree, as git reads them from the task's worktree; the formatter
   * would read them from the merge-base's.
   */
  private List<DiffEntry> committed(ObjectId mergeBase, ObjectId head) throws IOException {
    try (TreeWalk walk = new TreeWalk(repository, reader)) {
      walk.addTree(tree(mergeBase));
      walk.setHead(walk.addTree(tree(head)));
      walk.setRecursive(true);
      walk.setFilter(TreeFilter.ANY_DIFF);
      return DiffEntry.scan(walk);
    }
  }

  private AbstractTreeIterator tree(ObjectId commit) throws IOException {
    if (commit == null) {
      return new EmptyTreeIterator();
    }
    try (RevWalk walk = new RevWalk(reader)) {
      return new CanonicalTreeParser(null, reader, walk.parseCommit(commit).getTree());
    }
  }

  @Override
  public void close() {
    scanner.close();
    reader.close();
  }
}
