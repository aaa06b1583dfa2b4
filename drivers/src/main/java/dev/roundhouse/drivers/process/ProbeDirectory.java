package dev.roundhouse.drivers.process;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a short probe of an installed agent CLI runs ({@code --version}, {@code --help}, {@code auth status}): the
 * CLI's {@code HOME} (whose settings are the user's own anyway), else {@code /}; never the hub's working directory,
 * which may be a repository whose project settings (an {@code apiKeyHelper}, hooks) a probe about the installation
 * must not pick up. Stateless.
 */
public final class ProbeDirectory {
  private ProbeDirectory() {}

  /** The directory for a probe run with {@code environment}. */
  public static File of(Map<String, String> environment) {
    String home = environment.get("HOME");
    return home != null && !home.isBlank() && Files.isDirectory(Path.of(home)) ? new File(home) : new File("/");
  }
}
