package dev.roundhouse.workspace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.attributes.Attribute;
import org.eclipse.jgit.diff.ContentSource;
import org.eclipse.jgit.diff.DiffAlgorithm;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.errors.BinaryBlobException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.patch.FileHeader;
import org.eclipse.jgit.util.LfsFactory;
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
  /** Larger blobs count as binary: the formatter's own default, set on it too so both paths agree. */
  static final int BINARY_FILE_THRESHOLD = 50 << 20;

  private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
  private final Repository repository;
  private final DiffAlgorithm diffAlgorithm;
  private final ContentSource.Pair contents;
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
    this.repository = repository;
    this.formatter = new DiffFormatter(withHunks ? sink : NullOutputStream.INSTANCE);
    formatter.setRepository(repository); // for attributes; its reader is replaced next
    formatter.setReader(reader, repository.getConfig());
    formatter.setBinaryFileThreshold(BINARY_FILE_THRESHOLD);
    DiffAlgorithm.SupportedAlgorithm supported = configure(formatter, repository);
    this.algorithm = supported.name();
    this.diffAlgorithm = DiffAlgorithm.getAlgorithm(supported);
    ContentSource source = ContentSource.create(reader);
    this.contents = new ContentSource.Pair(source, source);
  }

  /**
   * Sets {@code formatter} to read {@code repository}'s way: its algorithm, no rename detection, full ids.
   *
   * @return the algorithm it set
   */
  static DiffAlgorithm.SupportedAlgorithm configure(DiffFormatter formatter, Repository repository) {
    boolean histogram = "histogram".equalsIgnoreCase(repository.getConfig().getString("diff", null, "algorithm"));
    DiffAlgorithm.SupportedAlgorithm algorithm =
        histogram ? DiffAlgorithm.SupportedAlgorithm.HISTOGRAM : DiffAlgorithm.SupportedAlgorithm.MYERS;
    formatter.setDiffAlgorithm(DiffAlgorithm.getAlgorithm(algorithm));
    formatter.setDetectRenames(false);
    // Full ids in the "index" line: an abbreviation is checked for uniqueness against every pack and loose object
    // folder, twice per file, and nothing here reads that line.
    formatter.setAbbreviationLength(Constants.OBJECT_ID_STRING_LENGTH);
    return algorithm;
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
    if (textPair(entry)) {
      RawText a;
      RawText b;
      try {
        a = text(DiffEntry.Side.OLD, entry);
        b = text(DiffEntry.Side.NEW, entry);
      } catch (BinaryBlobException e) {
        return new CountCache.Counts(true, 0, 0);
      }
      return counts(false, diffAlgorithm.diff(RawTextComparator.DEFAULT, a, b));
    }
    FileHeader header = formatter.toFileHeader(entry);
    return counts(header.getPatchType() != FileHeader.PatchType.UNIFIED, header.toEditList());
  }

  private static CountCache.Counts counts(boolean binary, EditList edits) {
    int added = 0;
    int removed = 0;
    for (var edit : edits) {
      added += edit.getLengthB();
      removed += edit.getLengthA();
    }
    return new CountCache.Counts(binary, added, removed);
  }

  /**
   * Whether the formatter would compare the two sides' contents as text: no submodule on either side, and each side
   * either missing or a blob named in full. Those are counted without it (below), as it would count them.
   */
  private static boolean textPair(DiffEntry entry) {
    return entry.getOldMode() != FileMode.GITLINK && entry.getNewMode() != FileMode.GITLINK
        && entry.getOldId() != null && entry.getNewId() != null
        && entry.getOldId().isComplete() && entry.getNewId().isComplete();
  }

  /**
   * One side's text as the formatter loads it (the same source, the LFS smudge filter if one is installed, the same
   * size limit); a binary or oversized blob throws {@link BinaryBlobException}. The formatter would also write the
   * patch's header lines and parse them back into a header (a sixth of its time in the benchmark's first reads),
   * which nothing here reads.
   */
  private RawText text(DiffEntry.Side side, DiffEntry entry) throws IOException, BinaryBlobException {
    FileMode mode = entry.getMode(side);
    if (mode == FileMode.MISSING || mode.getObjectType() != Constants.OBJ_BLOB) {
      return RawText.EMPTY_TEXT;
    }
    ObjectLoader loader = contents.open(side, entry);
    loader = LfsFactory.getInstance().applySmudgeFilter(repository, loader, entry.getDiffAttribute());
    return RawText.load(loader, BINARY_FILE_THRESHOLD);
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
