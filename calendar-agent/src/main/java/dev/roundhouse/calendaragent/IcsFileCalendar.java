package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A calendar in a local ICS file: parsed snapshots cached by modification time and size, and changes made at
 * the text level (every other byte of the user's file stays) and written atomically (a temporary file in the
 * same folder, then a move). Touches no file but its own and that temporary.
 *
 * <p>Thread-safe: readers share immutable snapshots; a writer takes this calendar's {@link ReentrantLock},
 * reads the file afresh, writes and moves while holding it (our own file, no callbacks, no other lock).
 */
final class IcsFileCalendar implements CalendarBackend {
  private final CalendarSource source;
  /** Guards the file itself (read, rewrite, move as one step), not a field: {@link #cache} is lock-free. */
  private final ReentrantLock lock = Locks.tracked("ICS file calendar");
  private final AtomicReference<Cached> cache = new AtomicReference<>();

  private record Cached(FileTime modified, long size, Snapshot snapshot) {}

  IcsFileCalendar(CalendarSource source) {
    this.source = source;
  }

  @Override
  public Snapshot read() {
    Path path = source.path();
    try {
      if (!Files.exists(path)) {
        return Snapshot.empty();
      }
      FileTime modified = Files.getLastModifiedTime(path);
      long size = Files.size(path);
      Cached cached = cache.get();
      if (cached != null && cached.modified().equals(modified) && cached.size() == size) {
        return cached.snapshot();
      }
      String text = Files.readString(path, StandardCharsets.UTF_8);
      Snapshot fresh = new Snapshot(modified + "/" + size, text, CalendarStore.parse(source.id(), text), Map.of());
      cache.set(new Cached(modified, size, fresh));
      return fresh;
    } catch (NoSuchFileException e) {
      return Snapshot.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read calendar '" + source.id() + "' at " + path, e);
    }
  }

  @Override
  public void apply(List<EventChange> changes) {
    lock.lock();
    try {
      Path path = source.path();
      String current = Files.exists(path) ? Files.readString(path, StandardCharsets.UTF_8) : "";
      String next = current;
      for (EventChange change : changes) {
        String now = String.join("", CalendarStore.eventBlocks(next, change.uid()));
        if (!change.alreadyApplied(now)) {
          next = replaced(next, change.uid(), now, change.after());
        }
      }
      if (next.equals(current)) {
        return;
      }
      CalendarStore.parse(source.id(), next);
      write(path, next);
      cache.set(null);
    } catch (IOException e) {
      throw new RoundhouseException("calendar_write_failed", "cannot write calendar '" + source.id() + "': " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  /** {@code text} with the event {@code uid} (now {@code now}) replaced by {@code after}. */
  static String replaced(String text, String uid, String now, String after) {
    if (now.isEmpty()) {
      return IcsText.withEvent(text, after, null);
    }
    if (after.isEmpty()) {
      return IcsText.withoutEvent(text, uid);
    }
    return IcsText.withEventReplaced(text, uid, after, List.of());
  }

  private static void write(Path path, String text) throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path temporary = Files.createTempFile(parent, "." + path.getFileName() + ".", ".tmp");
    try {
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      try {
        Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
