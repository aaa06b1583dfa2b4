package dev.roundhouse.drivers.openai;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Resolves the paths a model names against the turn's working directory and refuses any that lead outside
 * it, whether by {@code ..}, by an absolute path, or through a symbolic link (also a dangling one, which a
 * write would otherwise follow out). The resolved path is the real one, with every link inside the folder
 * followed.
 *
 * <p>A link swapped in between the check and the use is not caught; the gate for writes and the user's
 * review are the defence there. Immutable and thread-safe.
 */
final class WorkspacePaths {
  private static final int MAX_LINK_DEPTH = 40;

  private final Path root;
  private final Path realRoot;

  WorkspacePaths(Path root) {
    this.root = root.toAbsolutePath().normalize();
    try {
      this.realRoot = this.root.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("the working directory " + root + " cannot be read", e);
    }
  }

  /** The working directory, with links resolved. */
  Path root() {
    return realRoot;
  }

  /** A tool error about a path: its message is for the model. */
  static final class PathException extends Exception {
    private static final long serialVersionUID = 1L;

    PathException(String message) {
      super(message);
    }
  }

  /**
   * The real path for {@code given} (relative to the working directory, or absolute inside it), which need
   * not exist yet.
   *
   * @throws PathException naming the path and what is wrong with it
   */
  Path resolve(String given) throws PathException {
    if (given == null || given.isBlank()) {
      throw new PathException("the path is empty; give one relative to the working directory");
    }
    Path path;
    try {
      path = root.resolve(given.strip()).normalize();
    } catch (InvalidPathException e) {
      throw new PathException("'" + given + "' is not a valid path: " + e.getReason());
    }
    Path relative;
    if (path.startsWith(root)) {
      relative = root.relativize(path);
    } else if (path.startsWith(realRoot)) {
      relative = realRoot.relativize(path);
    } else {
      throw new PathException("'" + given + "' is outside the working directory; use a path inside " + realRoot);
    }
    return inside(given, realRoot.resolve(relative), 0);
  }

  /** {@code path} relative to the working directory, as the model should see it ("." for the root). */
  String show(Path path) {
    Path relative = realRoot.relativize(path);
    return relative.toString().isEmpty() ? "." : relative.toString();
  }

  private Path inside(String given, Path path, int depth) throws PathException {
    if (depth > MAX_LINK_DEPTH) {
      throw new PathException("'" + given + "' goes through too many symbolic links");
    }
    Deque<Path> missing = new ArrayDeque<>();
    Path existing = path;
    while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      missing.push(existing.getFileName());
      existing = existing.getParent();
    }
    if (existing == null) {
      throw new PathException("'" + given + "' is outside the working directory");
    }
    Path real;
    try {
      if (Files.isSymbolicLink(existing) && !Files.exists(existing)) {
        // A dangling link: where it points is where a write would go.
        Path target = existing.getParent().resolve(Files.readSymbolicLink(existing)).normalize();
        real = inside(given, target, depth + 1);
      } else {
        real = existing.toRealPath();
      }
    } catch (IOException e) {
      throw new PathException("'" + given + "' cannot be resolved: " + ChatClient.reason(e));
    }
    if (!real.startsWith(realRoot)) {
      throw new PathException(
          "'" + given + "' leads outside the working directory through a symbolic link (to " + real + "); only paths inside " + realRoot + " may be used");
    }
    for (Path name : missing) {
      real = real.resolve(name);
    }
    return real;
  }
}
