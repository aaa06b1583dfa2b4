package dev.roundhouse.drivers.acp;

import dev.roundhouse.drivers.process.ProbeDirectory;
import dev.roundhouse.drivers.process.ProcessGroups;
import dev.roundhouse.hub.spi.AuthStatus;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cheap check: is the agent's program there, which version is it (asked once per binary, by its {@code
 * version_args}), and does it have a key (one of {@code key_env} set) or a login (one of {@code
 * credential_files} present). Thread-safe.
 */
final class AuthCheck {
  private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+(?:\\.\\d+)?(?:[-+][0-9A-Za-z.-]+)?");
  /** Gemini CLI answers --version in 2-3 s on a quiet 2-core machine, and took over 15 s at load 20. */
  private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(40);

  private final AcpAgentConfig config;
  private final Map<String, String> versions = new ConcurrentHashMap<>();

  AuthCheck(AcpAgentConfig config) {
    this.config = config;
  }

  /** One sentence a human can act on; {@code knownVersion} (from the agent's last answer) spares a run. */
  AuthStatus status(Map<String, String> environment, String knownVersion) {
    String name = config.displayName();
    Path program = locate(config.command().program(), environment.get("PATH"));
    if (program == null) {
      return AuthStatus.problem(name + " is not installed: '" + config.command().program() + "' "
          + (config.command().program().contains("/") ? "is not an executable file" : "is not on PATH")
          + " (install it, or set the agent's \"command\" to its path)");
    }
    String version = knownVersion != null ? knownVersion : version(program, environment);
    String found = name + (version != null ? " " + version : " (version unknown)") + " at " + program;
    for (String variable : config.keyEnv()) {
      String value = environment.get(variable);
      if (value != null && !value.isBlank()) {
        return AuthStatus.ok(found + "; key in " + variable);
      }
    }
    for (String file : config.credentialFiles()) {
      Path path = expand(file, environment.get("HOME"), null);
      if (path != null && Files.isRegularFile(path)) {
        return AuthStatus.ok(found + "; logged in (" + file + ")");
      }
    }
    if (config.keyEnv().isEmpty() && config.credentialFiles().isEmpty()) {
      return AuthStatus.ok(found + "; its login is not checked here (run a verify)");
    }
    List<String> ways = new ArrayList<>();
    if (!config.keyEnv().isEmpty()) {
      ways.add("set " + String.join(" or ", config.keyEnv()));
    }
    if (!config.credentialFiles().isEmpty()) {
      ways.add("log in with the agent itself (" + String.join(", ", config.credentialFiles()) + ")");
    }
    return AuthStatus.problem(found + ", but it has no key or login: " + String.join(", or ", ways));
  }

  /** {@code ~/x} under {@code home}, other relative paths under {@code project} (null: not resolvable). */
  static Path expand(String file, String home, Path project) {
    if (file.startsWith("~/")) {
      return home == null ? null : Path.of(home, file.substring(2));
    }
    Path path = Path.of(file);
    return path.isAbsolute() ? path : project == null ? null : project.resolve(path);
  }

  static Path locate(String program, String path) {
    if (program.contains("/")) {
      Path file = Path.of(program);
      return Files.isExecutable(file) ? file.toAbsolutePath() : null;
    }
    if (path == null) {
      return null;
    }
    for (String folder : path.split(File.pathSeparator)) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return Path.of(folder, program);
      }
    }
    return null;
  }

  private String version(Path program, Map<String, String> environment) {
    if (config.versionArgs().isEmpty()) {
      return null;
    }
    String key;
    try {
      key = program + "@" + Files.getLastModifiedTime(program).toMillis();
    } catch (IOException e) {
      return null;
    }
    String known = versions.get(key);
    if (known != null) {
      return known.isEmpty() ? null : known;
    }
    String found = run(program, environment);
    versions.put(key, found == null ? "" : found);
    return found;
  }

  private String run(Path program, Map<String, String> environment) {
    List<String> command = new ArrayList<>();
    command.add(program.toString());
    command.addAll(config.versionArgs());
    Process process = null;
    try {
      ProcessBuilder builder = new ProcessBuilder(ProcessGroups.inOwnGroup(command)).redirectErrorStream(true)
          .directory(ProbeDirectory.of(environment));
      builder.environment().clear();
      builder.environment().putAll(environment);
      process = builder.start();
      process.getOutputStream().close();
      if (!process.waitFor(VERSION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        return null;
      }
      try (InputStream out = process.getInputStream()) {
        Matcher matcher = VERSION.matcher(new String(out.readNBytes(4096), StandardCharsets.UTF_8));
        return matcher.find() ? matcher.group() : null;
      }
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } finally {
      if (process != null) {
        ProcessGroups.killTree(process.toHandle());
      }
    }
  }
}
