package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcFs;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a port is free before a service is spawned, and names who holds it when it is not. Free means a
 * listening socket can be bound on the wildcard address (which collides with a listener on any local
 * address). The holder comes from Linux: the socket inode of a LISTEN entry of /proc/net/tcp or tcp6 for
 * the port, then the process with a descriptor on that inode. A process of another user, or in another
 * network namespace, cannot be named; the error says so. Stateless; thread-safe.
 */
public final class PortProbe {
  private static final String LISTEN = "0A";

  private PortProbe() {}

  /** Whether nothing listens on {@code port}. */
  public static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(port));
      return true;
    } catch (BindException e) {
      return false;
    } catch (IOException e) {
      throw new ServiceException("cannot probe port " + port + ": " + e.getMessage(), e);
    }
  }

  /**
   * Throws when {@code port} is taken, naming the holder.
   *
   * @param who what needs the port ("service web"), for the message
   */
  public static void requireFree(int port, String who) {
    if (free(port)) {
      return;
    }
    Optional<PortHolder> holder = holder(port);
    String message = holder
        .map(h -> "port " + port + " needed by " + who + " is held by " + h.describe()
            + ", which Roundhouse does not manage; stop it or give the service another port")
        .orElse("port " + port + " needed by " + who + " is in use by a process the OS does not name to us"
            + " (another user's, or in another network namespace)");
    throw new ServiceException.PortInUse(port, holder.orElse(null), message);
  }

  /** The process listening on {@code port}, when the OS tells. */
  public static Optional<PortHolder> holder(int port) {
    Set<String> inodes = new HashSet<>();
    for (String table : List.of("net/tcp", "net/tcp6")) {
      inodes.addAll(listeningInodes(ProcFs.PROC.resolve(table), port));
    }
    inodes.remove("0");
    if (inodes.isEmpty()) {
      return Optional.empty();
    }
    for (long pid : ProcFs.pids()) {
      if (holdsAny(pid, inodes)) {
        return Optional.of(new PortHolder(port, pid, ProcFs.cmdline(pid)));
      }
    }
    return Optional.empty();
  }

  private static Set<String> listeningInodes(Path table, int port) {
    Set<String> inodes = new HashSet<>();
    String hexPort = String.format(Locale.ROOT, ":%04X", port);
    try {
      for (String line : Files.readAllLines(table)) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length > 9 && fields[1].endsWith(hexPort) && fields[3].equals(LISTEN)) {
          inodes.add(fields[9]);
        }
      }
    } catch (IOException e) {
      // No IPv6, or /proc/net hidden: the holder goes unnamed.
    }
    return inodes;
  }

  private static boolean holdsAny(long pid, Set<String> inodes) {
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(ProcFs.PROC.resolve(pid + "/fd"))) {
      for (Path fd : fds) {
        String target = Files.readSymbolicLink(fd).toString();
        if (target.startsWith("socket:[") && inodes.contains(target.substring(8, target.length() - 1))) {
          return true;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Another user's process, or one that just ended.
    }
    return false;
  }
}
