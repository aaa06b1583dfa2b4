package dev.roundhouse.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Throwaway folders of the demo and the benchmarks: deleted with everything in them. Stateless. */
final class ScratchFolders {
  private ScratchFolders() {}

  /** Deletes {@code root} and everything below it. */
  static void delete(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the scratch folder " + root, e);
    }
  }
}
