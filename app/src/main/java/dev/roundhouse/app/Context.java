package dev.roundhouse.app;

import dev.roundhouse.hub.HubConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the command tree runs in: the environment variables ({@code ROUNDHOUSE_*}, {@code PATH}) and the
 * working directory. {@link Main} passes the process's own; tests pass theirs, so no test depends on or
 * changes the real environment. Immutable and thread-safe.
 *
 * @param env environment variables by name
 * @param workingDirectory an absolute path that relative paths on the command line are resolved against
 */
record Context(Map<String, String> env, Path workingDirectory) {

  Context {
    env = Map.copyOf(env);
    workingDirectory = workingDirectory.toAbsolutePath().normalize();
  }

  /** The running process's environment and working directory. */
  static Context ofProcess() {
    return new Context(System.getenv(), Path.of("").toAbsolutePath());
  }

  /** The hub configuration these variables describe (home, port, bind address…). */
  HubConfig hubConfig() {
    return HubConfig.fromEnvironment(env);
  }

  /** A variable's value, when it is set and not blank. */
  Optional<String> variable(String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }

  /** {@code path} made absolute against the working directory, normalized. */
  Path resolve(String path) {
    return workingDirectory.resolve(path).toAbsolutePath().normalize();
  }
}
