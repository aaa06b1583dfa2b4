package dev.roundhouse.hub.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.events.EventBus;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * SQLite's native library is loaded from the hub's own copy, made once, and never extracted to the temporary
 * folder; a damaged copy is replaced or, when it cannot be loaded, sqlite-jdbc's own extraction still opens the
 * store. Each case is a fresh JVM (the library loads once per process), with a temporary folder of its own.
 */
class SqliteNativeCopyTest {
  @TempDir Path home;
  @TempDir Path tmp;

  /** Opens a store in {@code args[0]} and prints which file SQLite's library was mapped from: run in a child JVM. */
  public static final class OpenOnce {
    public static void main(String[] args) throws IOException {
      EventBus bus = new EventBus();
      try (Store store = Store.sqlite(Path.of(args[0]).resolve("roundhouse.db"), Clock.systemUTC(), 8, bus)) {
        bus.attach(store);
        System.out.println("last seq " + store.lastSeq());
      }
      try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
        maps.filter(line -> line.contains("sqlitejdbc")).map(line -> line.substring(line.indexOf('/'))).distinct()
            .forEach(file -> System.out.println("mapped " + file));
      }
    }
  }

  private Path copy() {
    return home.resolve("native").resolve("sqlite-" + SQLiteJDBCLoader.getVersion()).resolve(LibraryLoaderUtil.getNativeLibName());
  }

  private static long jarSize() throws IOException {
    URL resource = SQLiteJDBCLoader.class.getResource(LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName());
    assertThat(resource).as("this platform's library in sqlite-jdbc's jar").isNotNull();
    return resource.openConnection().getContentLengthLong();
  }

  /** Opens a store in a child JVM; returns the file SQLite's library was loaded from. */
  private String openInAChild() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + tmp,
        "-cp", System.getProperty("java.class.path"), OpenOnce.class.getName(), home.toString())
        .redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes());
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).as(output).isZero();
    assertThat(output).contains("last seq 0");
    List<String> mapped = output.lines().filter(line -> line.startsWith("mapped ")).map(line -> line.substring(7)).toList();
    assertThat(mapped).as(output).hasSize(1);
    return mapped.getFirst();
  }

  @Test
  void theLibraryIsCopiedOnceIntoTheHomeAndNothingIsExtractedToTmp() throws Exception {
    assertThat(openInAChild()).isEqualTo(copy().toString());
    assertThat(Files.size(copy())).isEqualTo(jarSize());
    long made = Files.getLastModifiedTime(copy()).toMillis();

    assertThat(openInAChild()).isEqualTo(copy().toString());
    assertThat(Files.getLastModifiedTime(copy()).toMillis()).as("the copy is reused, not made again").isEqualTo(made);
  }

  @Test
  void aTruncatedCopyIsMadeAgain() throws Exception {
    Files.createDirectories(copy().getParent());
    Files.write(copy(), new byte[100]);
    assertThat(openInAChild()).isEqualTo(copy().toString());
    assertThat(Files.size(copy())).isEqualTo(jarSize());
  }

  @Test
  void aCopyThatCannotBeLoadedFallsBackToSqliteJdbcsOwnExtraction() throws Exception {
    Files.createDirectories(copy().getParent());
    Files.write(copy(), new byte[(int) jarSize()]); // the right size, not a library
    assertThat(openInAChild()).as("sqlite-jdbc extracted its own copy instead").startsWith(tmp.toString()).contains("sqlite-");
  }
}
