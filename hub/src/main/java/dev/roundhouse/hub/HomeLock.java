package dev.roundhouse.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.HostName;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One hub process per Roundhouse home. An OS file lock on {@code hub.lock} is held for the life of the
 * process; the OS releases it when the process dies, even by SIGKILL, so a crash never blocks the next
 * start. The file also says who holds it (pid, host, start time, URL), which a second {@code serve} names
 * in its refusal and which clients read to find the running hub.
 *
 * <p>POSIX drops every lock a process holds on a file when the process closes <em>any</em> descriptor of
 * that file. So within the holding process, nothing may open {@code hub.lock} again: the locks this JVM
 * holds are kept in {@link #HELD}, and {@link #isHeld}, {@link #readHolder} and a refused {@link #acquire}
 * answer from it instead of touching the file.
 *
 * <p>Thread-safe: the holder record and the file's channel are guarded by {@link #guard}, held while the record
 * changes and the file is rewritten (our own file, nothing else called).
 */
public final class HomeLock implements AutoCloseable {
  /** Lock files this JVM holds (or is taking), by absolute normalised path. */
  private static final ConcurrentHashMap<Path, Object> HELD =
      new ConcurrentHashMap<>();

  private static final Object TAKING = new Object();

  private final Path file;
  private final ReentrantLock guard = Locks.tracked("hub.lock holder");

  @GuardedBy("guard")
  private final FileChannel channel;

  @GuardedBy("guard")
  private final FileLock lock;

  @GuardedBy("guard")
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
    Path key = key(file);
    if (HELD.putIfAbsent(key, TAKING) != null) {
      throw refused(key, readHolder(key));
    }
    boolean taken = false;
    try {
      Files.createDirectories(key.getParent());
      FileChannel channel =
          FileChannel.open(key, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        // Another process holds it; this process holds no lock on the file, so closing is harmless.
        Optional<JsonNode> holder = read(channel);
        channel.close();
        throw refused(key, holder);
      }
      ObjectNode holder = Json.mapper().createObjectNode();
      holder.put("pid", ProcessHandle.current().pid());
      holder.put("host", HostName.local());
      holder.put("started_at", now.toString());
      HomeLock homeLock = new HomeLock(key, channel, lock, holder);
      homeLock.guard.lock();
      try {
        homeLock.write();
      } finally {
        homeLock.guard.unlock();
      }
      HELD.put(key, homeLock);
      taken = true;
      return homeLock;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lock " + file, e);
    } finally {
      if (!taken) {
        HELD.remove(key, TAKING);
      }
    }
  }

  private static RoundhouseException.HomeLocked refused(Path file, Optional<JsonNode> holder) {
    return new RoundhouseException.HomeLocked(
        "another Roundhouse hub is using "
            + file.getParent()
            + ": "
            + holder.map(HomeLock::describe).orElse("holder unknown")
            + ". Stop it first, or set ROUNDHOUSE_HOME to another folder.");
  }

  private static Path key(Path file) {
    return file.toAbsolutePath().normalize();
  }

  private static Optional<JsonNode> read(FileChannel channel) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(channel.size(), 64 * 1024));
    channel.read(buffer, 0);
    return parse(new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8));
  }

  private static Optional<JsonNode> parse(String text) {
    try {
      String trimmed = text.strip();
      return trimmed.isEmpty() ? Optional.empty() : Optional.of(Json.mapper().readTree(trimmed));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Records the URL the hub listens on, for clients to find it. */
  public void publishUrl(String url) {
    guard.lock();
    try {
      holder.put("url", url);
      write();
    } finally {
      guard.unlock();
    }
  }

  /** What the lock file says about its holder, if anything; the holder may have died since. */
  public static Optional<JsonNode> readHolder(Path file) {
    Object mine = HELD.get(key(file));
    if (mine instanceof HomeLock held) {
      return Optional.of(held.holderCopy());
    }
    if (mine != null) {
      return Optional.empty(); // being taken by this process right now
    }
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private JsonNode holderCopy() {
    guard.lock();
    try {
      return holder.deepCopy();
    } finally {
      guard.unlock();
    }
  }

  /** True when some process holds the lock on {@code file} right now. */
  public static boolean isHeld(Path file) {
    if (HELD.containsKey(key(file))) {
      return true;
    }
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

  @GuardedBy("guard")
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

  @Override
  public void close() {
    guard.lock();
    try {
      if (lock.isValid()) {
        channel.truncate(0);
        lock.release();
      }
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release " + file, e);
    } finally {
      HELD.remove(file, this);
      guard.unlock();
    }
  }
}
