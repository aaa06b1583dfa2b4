package dev.roundhouse.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;

/**
 * One hub process per Roundhouse home. An OS file lock on {@code hub.lock} is held for the life of the
 * process; the OS releases it when the process dies, even by SIGKILL, so a crash never blocks the next
 * start. The file also says who holds it (pid, host, start time, URL), which a second {@code serve} names
 * in its refusal and which clients read to find the running hub.
 *
 * <p>Thread-safe.
 */
public final class HomeLock implements AutoCloseable {
  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private final ObjectNode holder;

  private HomeLock(Path file, FileChannel channel, FileLock lock, ObjectNode holder) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
    this.holder = holder;
  }

  /**
   * Takes the lock or fails at once, naming the holder.
   *
   * @throws RoundhouseException.HomeLocked when another process holds it
   */
  public static HomeLock acquire(Path file, Instant now) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      FileChannel channel =
          FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        channel.close();
        throw new RoundhouseException.HomeLocked(
            "another Roundhouse hub is using "
                + file.getParent()
                + ": "
                + readHolder(file).map(HomeLock::describe).orElse("holder unknown")
                + ". Stop it first, or set ROUNDHOUSE_HOME to another folder.");
      }
      ObjectNode holder = Json.mapper().createObjectNode();
      holder.put("pid", ProcessHandle.current().pid());
      holder.put("host", hostName());
      holder.put("started_at", now.toString());
      HomeLock homeLock = new HomeLock(file, channel, lock, holder);
      homeLock.write();
      return homeLock;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lock " + file, e);
    }
  }

  /** Records the URL the hub listens on, for clients to find it. */
  public synchronized void publishUrl(String url) {
    holder.put("url", url);
    write();
  }

  /** What the lock file says about its holder, if anything; the holder may have died since. */
  public static Optional<JsonNode> readHolder(Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8).strip();
      return text.isEmpty() ? Optional.empty() : Optional.of(Json.mapper().readTree(text));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** True when some process holds the lock on {@code file} right now. */
  public static boolean isHeld(Path file) {
    if (!Files.exists(file)) {
      return false;
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock probe = channel.tryLock();
      if (probe == null) {
        return true;
      }
      probe.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  static String describe(JsonNode holder) {
    return "pid "
        + holder.path("pid").asText("?")
        + " on "
        + holder.path("host").asText("?")
        + ", started "
        + holder.path("started_at").asText("?")
        + (holder.has("url") ? ", at " + holder.get("url").asText() : "");
  }

  private void write() {
    try {
      byte[] bytes = (Json.write(holder) + "\n").getBytes(StandardCharsets.UTF_8);
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(bytes), 0);
      channel.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }

  @Override
  public synchronized void close() {
    try {
      if (lock.isValid()) {
        channel.truncate(0);
        lock.release();
      }
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release " + file, e);
    }
  }
}
