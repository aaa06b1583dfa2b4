package dev.roundhouse.workspace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.attributes.Attribute;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.patch.FileHeader;
import org.eclipse.jgit.util.io.NullOutputStream;

/**
 * One file of a diff as a {@link FileChange}: its line counts are the sums of its edit list (no text is formatted
 * unless hunks are asked for); a binary file has none, whether its contents say so or its attributes do. Myers is the
 * default algorithm, as in git, unless the repository's {@code diff.algorithm} says histogram, so line counts agree
 * with git's. Counts already made are taken from the {@link CountCache} when no hunks are asked for.
 *
 * <p>Not thread-safe: one per thread, over a reader of its own.
 */
final class FileCounter implements AutoCloseable {
  private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
  private final DiffFormatter formatter;
  private final boolean withHunks;
  private final CountCache cache;
  private final String algorithm;

  /**
   * @param reader where contents come from (not closed here)
   * @param cache  counts already made, consulted and filled when no hunks are asked for
   */
  FileCounter(Repository repository, ObjectReader reader, boolean withHunks, CountCache cache) {
    this.withHunks = withHunks;
    this.cache = cache;
    this.formatter = new DiffFormatter(withHunks ? sink : NullOutputStream.INSTANCE);
    formatter.setRepository(repository); // for attributes; its reader is replaced next
    formatter.setReader(reader, repository.getConfig());
    this.algorithm = configure(formatter, repository);
  }

  /**
   * Sets {@code formatter} to read {@code repository}'s way: its algorithm, no rename detection, full ids.
   *
   * @return the algorithm's name
   */
  static String configure(DiffFormatter formatter, Repository repository) {
    boolean histogram = "histogram".equalsIgnoreCase(repository.getConfig().getString("diff", null, "algorithm"));
    DiffAlgorithm.SupportedAlgorithm algorithm =
        histogram ? DiffAlgorithm.SupportedAlgorithm.HISTOGRAM : DiffAlgorithm.SupportedAlgorithm.MYERS;
    formatter.setDiffAlgorithm(DiffAlgorithm.getAlgorithm(algorithm));
    formatter.setDetectRenames(false);
    // Full ids in the "index" line: an abbreviation is checked for uniqueness against every pack and loose object
    // folder, twice per file, and nothing here reads that line.
    formatter.setAbbreviationLength(Constants.OBJECT_ID_STRING_LENGTH);
    return algorithm.name();
  }

  /** @param dirty the worktree's uncommitted paths */
  FileChange count(DiffEntry entry, Set<String> dirty) throws IOException {
    CountCache.Key key = withHunks ? null : CountCache.keyOf(entry, algorithm);
    CountCache.Counts counts = key == null ? null : cache.get(key);
    if (counts == null) {
      counts = counts(entry);
      if (key != null) {
        cache.put(key, counts);
      }
    }
    boolean binary = counts.binary();
    List<Hunk> hunks = withHunks && !binary ? hunks(entry) : List.of();
    String path = entry.getChangeType() == DiffEntry.ChangeType.DELETE ? entry.getOldPath() : entry.getNewPath();
    String oldPath = entry.getChangeType() == DiffEntry.ChangeType.ADD ? entry.getNewPath() : entry.getOldPath();
    boolean uncommitted = dirty.contains(entry.getNewPath()) || dirty.contains(entry.getOldPath());
    return new FileChange(path, oldPath, kind(entry.getChangeType()), binary, binary ? 0 : counts.added(),
        binary ? 0 : counts.removed(), uncommitted, hunks);
  }

  private CountCache.Counts counts(DiffEntry entry) throws IOException {
    Attribute diff = entry.getDiffAttribute();
    if (diff != null && diff.getState() == Attribute.State.UNSET) {
      // "-diff" or "binary" in .gitattributes: git counts no lines, and JGit's formatter would
      return new CountCache.Counts(true, 0, 0);
    }
    FileHeader header = formatter.toFileHeader(entry);
    boolean binary = header.getPatchType() != FileHeader.PatchType.UNIFIED;
    int added = 0;
    int removed = 0;
    for (var edit : header.toEditList()) {
      added += edit.getLengthB();
      removed += edit.getLengthA();
    }
    return new CountCache.Counts(binary, added, removed);
  }

  private List<Hunk> hunks(DiffEntry entry) throws IOException {
    sink.reset();
    formatter.format(entry);
    formatter.flush();
    return Hunks.parse(sink.toString(StandardCharsets.UTF_8));
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
  }
}
