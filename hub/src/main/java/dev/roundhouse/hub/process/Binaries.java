package dev.roundhouse.hub.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The util-linux and shell programs the process engine runs, found once at their usual places (never
 * through the caller's {@code PATH}, which a project may change). Stateless; thread-safe.
 */
final class Binaries {
  /** {@code setsid}: a session and process group of its own. */
  static final Optional<String> SETSID = find("setsid");
  /** {@code setpriv}: {@code --pdeathsig} (util-linux 2.33 and newer). */
  static final Optional<String> SETPRIV = find("setpriv");
  /** {@code kill}: the JDK cannot signal a process group. */
  static final Optional<String> KILL = find("kill");
  /** The shell that moves a child into its cgroup before it execs. */
  static final Optional<String> SH = find("sh");

  private Binaries() {}

  private static Optional<String> find(String name) {
    for (String folder : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
      Path candidate = Path.of(folder, name);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate.toString());
      }
    }
    return Optional.empty();
  }
}
