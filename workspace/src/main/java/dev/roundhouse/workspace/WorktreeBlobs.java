package dev.roundhouse.workspace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import org.eclipse.jgit.diff.ContentSource;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * An object reader that serves a blob of the task's side of a diff from the task's worktree when the file at the
 * blob's path hashes to the blob's id, and everything else from the object store. A task's new blobs are loose
 * objects (an agent's commits are never packed yet), and JGit opens a loose object several times slower than a
 * plain file: it searches the packs first, then inflates. The hash makes it exact: a file that was edited since,
 * is a symbolic link, or passes through a clean filter or line-ending conversion does not match and is read
 * from the object store instead.
 *
 * <p>A blob that exists only in the worktree (an uncommitted change, hashed by JGit's working tree iterator through
 * the repository's filters) and whose file does not match byte for byte is read through {@code filtered}.
 *
 * <p>Not thread-safe, as any {@link ObjectReader}: one per thread.
 */
final class WorktreeBlobs extends ObjectReader.Filter {
  /** Larger files are left to the object store, which streams them. */
  static final long MAX_FILE = 16L << 20;

  private final ObjectReader store;
  private final Path worktree;
  private final Map<ObjectId, String> paths;
  private final ContentSource filtered;
  private final MessageDigest sha1 = sha1();

  /**
   * @param store    the object store's reader; closed with this one
   * @param worktree the worktree's folder
   * @param paths    the path of each blob the worktree may hold
   * @param filtered the worktree through the repository's filters, or null when no blob exists only there
   */
  WorktreeBlobs(ObjectReader store, Path worktree, Map<ObjectId, String> paths, ContentSource filtered) {
    this.store = store;
    this.worktree = worktree;
    this.paths = paths;
    this.filtered = filtered;
  }

  @Override
  protected ObjectReader delegate() {
    return store;
  }

  @Override
  public ObjectReader newReader() {
    return new WorktreeBlobs(store.newReader(), worktree, paths, filtered);
  }

  @Override
  public ObjectLoader open(AnyObjectId id, int typeHint) throws IOException {
    String path = typeHint == Constants.OBJ_BLOB || typeHint == OBJ_ANY ? paths.get(id) : null;
    if (path == null) {
      return store.open(id, typeHint);
    }
    byte[] content = matchingFile(path, id);
    if (content != null) {
      return new ObjectLoader.SmallObject(Constants.OBJ_BLOB, content);
    }
    try {
      return store.open(id, typeHint);
    } catch (MissingObjectException e) {
      if (filtered == null) {
        throw e;
      }
      return filtered.open(path, id.toObjectId());
    }
  }

  @Override
  public ObjectLoader open(AnyObjectId id) throws IOException {
    return open(id, OBJ_ANY);
  }

  @Override
  public long getObjectSize(AnyObjectId id, int typeHint) throws IOException {
    return paths.containsKey(id) ? open(id, typeHint).getSize() : store.getObjectSize(id, typeHint);
  }

  /**
   * The id git gives a blob of these bytes. The JDK's SHA-1 (the CPU's SHA instructions where it has them) is
   * several times faster than JGit's, which also checks for collision attacks: not needed to tell whether a file
   * in the task's own worktree still holds a blob the diff already names.
   */
  private ObjectId blobId(byte[] content) {
    sha1.update(Constants.encodedTypeString(Constants.OBJ_BLOB));
    sha1.update((byte) ' ');
    sha1.update(Constants.encodeASCII(content.length));
    sha1.update((byte) 0);
    sha1.update(content);
    return ObjectId.fromRaw(sha1.digest());
  }

  private static MessageDigest sha1() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no SHA-1", e);
    }
  }

  /** The file's bytes when it is a regular file whose blob id is {@code id}, else null. */
  private byte[] matchingFile(String path, AnyObjectId id) {
    Path file = worktree.resolve(path);
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!attributes.isRegularFile() || attributes.size() > MAX_FILE) {
        return null;
      }
      // Exactly the size just read, in one read where the file allows: no size query and no read at the end of the
      // file, two system calls of the six a whole-file read makes (each costs more than its bytes for a small file).
      byte[] content = new byte[(int) attributes.size()];
      try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
        if (in.readNBytes(content, 0, content.length) != content.length) {
          return null; // shorter than a moment ago: edited meanwhile
        }
      }
      return id.equals(blobId(content)) ? content : null;
    } catch (IOException | RuntimeException e) {
      return null; // gone, unreadable or not a file: the object store answers
    }
  }
}
