package dev.roundhouse.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The launcher's start cache as this JVM was given it ({@code scripts/start-cache.sh} passes the cache file as
 * the system property {@value #PROPERTY} beside the option that maps it), so that a JVM this one starts (the
 * background hub of a stdio face) starts from the same cache. Stateless; thread-safe.
 */
final class StartCache {
  static final String PROPERTY = "roundhouse.startCache";

  private StartCache() {}

  /**
   * The JVM options that use this JVM's start cache, as the launcher gives them: none when it was started
   * without one, or the file is gone. The JVM checks the cache itself and starts without it when it does not fit.
   */
  static List<String> jvmOptions() {
    Optional<Path> file = Optional.ofNullable(System.getProperty(PROPERTY)).filter(name -> !name.isBlank()).map(Path::of)
        .filter(Files::isRegularFile);
    if (file.isEmpty()) {
      return List.of();
    }
    String name = file.get().toString();
    String use = name.endsWith(".jsa") ? "-XX:SharedArchiveFile=" + name : "-XX:AOTCache=" + name;
    return List.of(use, "-D" + PROPERTY + "=" + name,
        "-Xlog:disable", "-Xlog:all=warning,aot*=off,cds*=off:stderr");
  }
}
