package dev.roundhouse.hub.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicBoolean;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a copy of sqlite-jdbc's native library in a folder of the hub's own and points sqlite-jdbc at it
 * ({@code org.sqlite.lib.path}, {@code org.sqlite.lib.name}) before the process's first connection. Left to
 * itself, sqlite-jdbc extracts the library (1 MB) to a new file under {@code /tmp} at every start, compares it
 * with the jar's copy, and leaves it behind whenever the JVM is killed (a SIGKILLed hub left one file each);
 * the copy is made once per sqlite-jdbc version, whole (a temporary file moved into place), and made again when
 * its size differs from the jar's. Anything amiss leaves the properties unset: sqlite-jdbc then extracts as usual,
 * and it also falls back to that when loading the copy fails. Settings the user gave win. Thread-safe: the first
 * call in a process does the work.
 */
final class SqliteNativeCopy {
  private static final Logger log = LoggerFactory.getLogger(SqliteNativeCopy.class);
  static final String PATH_PROPERTY = "org.sqlite.lib.path";
  static final String NAME_PROPERTY = "org.sqlite.lib.name";
  private static final AtomicBoolean prepared = new AtomicBoolean();

  private SqliteNativeCopy() {}

  /** Makes (when needed) the copy in {@code folder} and points sqlite-jdbc at it, once per process. */
  static void prepare(Path folder) {
    if (!prepared.compareAndSet(false, true)
        || System.getProperty(PATH_PROPERTY) != null || System.getProperty(NAME_PROPERTY) != null) {
      return;
    }
    try {
      String library = LibraryLoaderUtil.getNativeLibName();
      URL resource = SQLiteJDBCLoader.class.getResource(LibraryLoaderUtil.getNativeLibResourcePath() + "/" + library);
      if (resource == null) {
        return; // no library for this platform in the jar: sqlite-jdbc says so itself
      }
      long size = resource.openConnection().getContentLengthLong();
      // The library keeps its own name (sqlite-jdbc's fallback, extracting from the jar, looks it up by that
      // name); the version is the folder's.
      Path versionFolder = folder.resolve("sqlite-" + SQLiteJDBCLoader.getVersion());
      Path copy = versionFolder.resolve(library);
      if (size < 0 || !Files.isRegularFile(copy) || Files.size(copy) != size) {
        Files.createDirectories(versionFolder);
        Path partial = Files.createTempFile(versionFolder, library, ".partial");
        try (InputStream in = resource.openStream()) {
          Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
          Files.move(partial, copy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
          Files.deleteIfExists(partial);
        }
      }
      System.setProperty(PATH_PROPERTY, versionFolder.toString());
      System.setProperty(NAME_PROPERTY, library);
    } catch (IOException | RuntimeException e) {
      log.debug("no copy of SQLite's native library in {}; sqlite-jdbc extracts its own", folder, e);
    }
  }
}
