package dev.roundhouse.hub.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads what Linux tells about processes under /proc. Every read tolerates the process vanishing
 * mid-way (it answers empty). Stateless; thread-safe.
 */
public final class ProcFs {
  public static final Path PROC = Path.of("/proc");

  private ProcFs() {}

  /** One line of /proc/pid/stat, the fields the engine needs. */
  public record Stat(long pid, char state, long ppid, long pgid, long sid, long startTicks) {
    public boolean zombie() {
      return state == 'Z' || state == 'X';
    }
  }

  public static Optional<Stat> stat(long pid) {
    try {
      String line = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
      // comm (field 2) may hold spaces and parentheses; everything after the last ')' is plain fields.
      String[] fields = line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
      return Optional.of(new Stat(pid, fields[0].charAt(0), Long.parseLong(fields[1]), Long.parseLong(fields[2]),
          Long.parseLong(fields[3]), Long.parseLong(fields[19])));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  public static List<String> cmdline(long pid) {
    return nulSeparated(PROC.resolve(Long.toString(pid)).resolve("cmdline"));
  }

  /** Whether the process's environment holds exactly {@code entry} ("NAME=value"). */
  public static boolean environContains(long pid, String entry) {
    return nulSeparated(PROC.resolve(Long.toString(pid)).resolve("environ")).contains(entry);
  }

  public static List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC)) {
      for (Path dir : dirs) {
        String name = dir.getFileName().toString();
        if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
          pids.add(Long.parseLong(name));
        }
      }
    } catch (IOException e) {
      throw new ProcessException("cannot list processes under /proc: " + e.getMessage(), e);
    }
    return pids;
  }

  public static List<Stat> all() {
    List<Stat> stats = new ArrayList<>();
    for (long pid : pids()) {
      stat(pid).ifPresent(stats::add);
    }
    return stats;
  }

  public static String bootId() {
    try {
      return Files.readString(PROC.resolve("sys/kernel/random/boot_id")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static List<String> nulSeparated(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      List<String> parts = new ArrayList<>();
      int start = 0;
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] == 0) {
          parts.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
          start = i + 1;
        }
      }
      if (start < bytes.length) {
        parts.add(new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8));
      }
      return parts;
    } catch (IOException e) {
      return List.of();
    }
  }
}
