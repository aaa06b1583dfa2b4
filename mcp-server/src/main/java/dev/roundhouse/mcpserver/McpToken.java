package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.LocalToken;
import dev.roundhouse.hub.core.Locks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP endpoint's bearer token, kept in a file ({@code $ROUNDHOUSE_HOME/mcp-token}). The file is read
 * again whenever its modification time or size changes, so writing a new token into it rotates the token at
 * once, and deleting it revokes every client until the hub restarts and creates a new one.
 *
 * <p>Thread-safe: the cached token is replaced under a lock, never held while comparing.
 */
final class McpToken {
  private static final Logger log = LoggerFactory.getLogger(McpToken.class);

  private final Path file;
  /** Makes one thread at a time re-read the file; guards no field. */
  private final ReentrantLock lock = Locks.tracked("MCP token file");

  /**
   * Volatile, not {@code @GuardedBy}: every request reads it without the lock (a stale copy costs only a
   * re-read); it is written only under {@link #lock}.
   */
  private volatile Cached cached;

  private record Cached(FileTime modified, long size, byte[] token) {}

  private McpToken(Path file) {
    this.file = file;
  }

  /** Reads the token in {@code file}, creating one (256 random bits, mode 0600) first if there is none. */
  static McpToken loadOrCreate(Path file) {
    LocalToken.loadOrCreate(file, new SecureRandom());
    return new McpToken(file);
  }

  Path file() {
    return file;
  }

  /** True when {@code presented} is the token now in the file; false when the file is gone or unreadable. */
  boolean matches(String presented) {
    return current().map(token -> MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))).orElse(false);
  }

  private Optional<byte[]> current() {
    FileTime modified;
    long size;
    try {
      // One stat per request (the token may be rotated at any time, and takes effect at once).
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      modified = attributes.lastModifiedTime();
      size = attributes.size();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      log.warn("cannot read the MCP token file {}: {}", file, e.toString());
      return Optional.empty();
    }
    Cached seen = cached;
    if (seen != null && seen.modified().equals(modified) && seen.size() == size) {
      return Optional.of(seen.token());
    }
    lock.lock();
    try {
      String token = LocalToken.read(file);
      cached = new Cached(modified, size, token.getBytes(StandardCharsets.UTF_8));
      return Optional.of(cached.token());
    } catch (IOException e) {
      log.warn("cannot read the MCP token file {}: {}", file, e.getMessage());
      return Optional.empty();
    } finally {
      lock.unlock();
    }
  }
}
