package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.RoundhouseException;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;

/**
 * The configured ICS files: parsed calendars cached by modification time and size, and atomic writes
 * (temporary file in the same folder, then a move). Touches no file but the configured ones and their
 * temporaries.
 *
 * <p>Thread-safe: readers share immutable snapshots; writers of one calendar take that calendar's
 * {@link ReentrantLock}, read the file afresh, write and move while holding it. No lock is held while
 * calling out of this class; locks of two calendars are never held together.
 */
final class CalendarStore {
  private final Map<String, CalendarSource> sources;
  private final List<String> order;
  private final Map<String, Snapshot> cache = new ConcurrentHashMap<>();
  private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

  /** A parsed file; never mutated once cached. */
  record Snapshot(FileTime modified, long size, String text, Calendar calendar) {}

  CalendarStore(List<CalendarSource> configured) {
    Map<String, CalendarSource> byId = new LinkedHashMap<>();
    for (CalendarSource source : configured) {
      byId.put(source.id(), source);
      locks.put(source.id(), new ReentrantLock());
    }
    this.sources = Map.copyOf(byId);
    this.order = List.copyOf(byId.keySet());
  }

  List<CalendarSource> sources() {
    return order.stream().map(sources::get).toList();
  }

  CalendarSource source(String id) {
    CalendarSource source = id == null ? null : sources.get(id);
    if (source == null) {
      throw new RoundhouseException.NotFound("no calendar '" + id + "'; configured: " + String.join(", ", order));
    }
    return source;
  }

  CalendarSource writable(String id) {
    CalendarSource source = source(id);
    if (!source.writable()) {
      throw new RoundhouseException.Forbidden("calendar_read_only", "calendar '" + id + "' is read-only");
    }
    return source;
  }

  /** The calendar as the file holds it now; an absent file is an empty calendar. */
  Snapshot read(String id) {
    CalendarSource source = source(id);
    Path path = source.path();
    try {
      if (!Files.exists(path)) {
        return new Snapshot(FileTime.fromMillis(0), -1, "", new Calendar());
      }
      FileTime modified = Files.getLastModifiedTime(path);
      long size = Files.size(path);
      Snapshot cached = cache.get(id);
      if (cached != null && cached.modified().equals(modified) && cached.size() == size) {
        return cached;
      }
      String text = Files.readString(path, StandardCharsets.UTF_8);
      Snapshot fresh = new Snapshot(modified, size, text, parse(id, text));
      cache.put(id, fresh);
      return fresh;
    } catch (NoSuchFileException e) {
      return new Snapshot(FileTime.fromMillis(0), -1, "", new Calendar());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read calendar '" + id + "' at " + path, e);
    }
  }

  static Calendar parse(String id, String text) {
    try {
      return new CalendarBuilder().build(new StringReader(text));
    } catch (IOException | ParserException | RuntimeException e) {
      throw new RoundhouseException("calendar_unreadable", "calendar '" + id + "' is not valid iCalendar: " + e.getMessage(), e);
    }
  }

  /**
   * Rewrites the file of calendar {@code id} as {@code change} says, under its lock: the change sees the
   * current text (empty for a new file) and returns the new text, or the same text to leave it alone. The
   * new text must parse; it replaces the file by an atomic move. Returns whether the file changed.
   */
  boolean update(String id, UnaryOperator<String> change) {
    CalendarSource source = writable(id);
    ReentrantLock lock = locks.get(id);
    lock.lock();
    try {
      Path path = source.path();
      String current = Files.exists(path) ? Files.readString(path, StandardCharsets.UTF_8) : "";
      String next = change.apply(current);
      if (next.equals(current)) {
        return false;
      }
      parse(id, next);
      Path parent = path.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Path temporary = Files.createTempFile(parent, "." + path.getFileName() + ".", ".tmp");
      try {
        Files.writeString(temporary, next, StandardCharsets.UTF_8);
        try {
          Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temporary);
      }
      cache.remove(id);
      return true;
    } catch (IOException e) {
      throw new RoundhouseException("calendar_write_failed", "cannot write calendar '" + id + "': " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  /** The raw VEVENT blocks of {@code text} whose UID is {@code uid}, each as its lines joined with CRLF. */
  static List<String> eventBlocks(String text, String uid) {
    List<String> found = new ArrayList<>();
    for (IcsText.Block block : IcsText.blocks(text)) {
      if (block.name().equals("VEVENT") && Optional.ofNullable(block.uid()).orElse("").equals(uid)) {
        found.add(block.text());
      }
    }
    return found;
  }
}
