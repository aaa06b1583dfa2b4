package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Where a CalDAV password comes from: an environment variable's name or a file readable by its owner only
 * (mode 0600). The password itself is read on use and never kept here, so it cannot reach the database,
 * a log line or a {@code toString()}, which names only its source. Immutable and thread-safe.
 */
public final class Password {
  private final String env;
  private final Path file;
  private final Function<String, String> lookup;

  private Password(String env, Path file, Function<String, String> lookup) {
    this.env = env;
    this.file = file;
    this.lookup = lookup;
  }

  /** The password in environment variable {@code name} of {@code environment}. */
  public static Password fromEnv(String name, Map<String, String> environment) {
    Objects.requireNonNull(name, "name");
    Map<String, String> copy = Map.copyOf(environment);
    return new Password(name, null, copy::get);
  }

  /** The password in {@code file} (its first line), which must not be readable by group or others. */
  public static Password fromFile(Path file) {
    if (!file.isAbsolute()) {
      throw new RoundhouseException.InvalidInput("password file " + file + " is not absolute");
    }
    return new Password(null, file.normalize(), null);
  }

  /** Reads the password now; {@code calendar} names the calendar in errors. */
  String reveal(String calendar) {
    return revealFor("calendar '" + calendar + "'");
  }

  /** Reads the password now; {@code user} names what it is for in errors, such as {@code calendar 'team'}. */
  String revealFor(String user) {
    if (env != null) {
      String value = lookup.apply(env);
      if (value == null || value.isEmpty()) {
        throw new RoundhouseException.InvalidInput(user + ": environment variable " + env + " (its password) is not set");
      }
      return value;
    }
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      for (PosixFilePermission open : Set.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE)) {
        if (permissions.contains(open)) {
          throw new RoundhouseException.Forbidden("password_file_open", user + ": password file " + file
              + " is readable or writable by others; chmod 600 it");
        }
      }
      String text = Files.readString(file, StandardCharsets.UTF_8);
      String first = text.lines().findFirst().orElse("");
      if (first.isEmpty()) {
        throw new RoundhouseException.InvalidInput(user + ": password file " + file + " is empty");
      }
      return first;
    } catch (IOException | UnsupportedOperationException e) {
      throw new RoundhouseException.InvalidInput(user + ": cannot read password file " + file + ": " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return env != null ? "env:" + env : "file:" + file;
  }
}
