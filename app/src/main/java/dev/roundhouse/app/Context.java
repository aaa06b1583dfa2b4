package dev.roundhouse.app;

import dev.roundhouse.hub.HubConfig;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the command tree runs in: the environment variables ({@code ROUNDHOUSE_*}, {@code PATH}), the
 * working directory and standard input. {@link Main} passes the process's own; tests pass theirs, so no
 * test depends on or changes the real environment or reads the real terminal. Immutable and thread-safe
 * (the input stream itself is read by one command at a time).
 *
 * @param env environment variables by name
 * @param workingDirectory an absolute path that relative paths on the command line are resolved against
 * @param stdin where a command reads a human's answers (empty unless given)
 */
record Context(Map<String, String> env, Path workingDirectory, InputStream stdin) {

  Context {
    env = Map.copyOf(env);
    workingDirectory = workingDirectory.toAbsolutePath().normalize();
    Objects.requireNonNull(stdin, "stdin");
  }

  /** A context with nothing on standard input. */
  Context(Map<String, String> env, Path workingDirectory) {
    this(env, workingDirectory, InputStream.nullInputStream());
  }

  /** The running process's environment, working directory and standard input. */
  static Context ofProcess() {
    return new Context(System.getenv(), Path.of("").toAbsolutePath(), System.in);
  }

  /** This context reading {@code input} as standard input. */
  Context withStdin(InputStream input) {
    return new Context(env, workingDirectory, input);
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
