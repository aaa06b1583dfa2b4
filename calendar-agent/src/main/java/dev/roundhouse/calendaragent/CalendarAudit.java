package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.Locks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The calendar agent's audit trail: every query, stage, approval and rejection, with a rolling cap, kept as
 * JSON lines in {@code calendar-audit.jsonl} in the Roundhouse home so it survives restarts (and a reset of
 * the database, like the calendars themselves).
 *
 * <p>Each entry recorded is told to a listener ({@code recorded}, with the entry's actor), after the lock is
 * released: the calendar agent notifies subscribers of {@code roundhouse://calendar/audit} through it.
 *
 * <p>Thread-safe: one {@link ReentrantLock} guards the entries and the file; appending to the file happens
 * under it (our own file, no callbacks), nothing else is called while it is held.
 */
final class CalendarAudit {
  static final String FILE = "calendar-audit.jsonl";
  static final int DEFAULT_CAP = 1_000;
  private static final Pattern USERINFO = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)[^/?#\\s\"@]+@");

  /** One audited action. */
  record Entry(String at, String operation, String actor, String summary) {}

  private final Path file;
  private final int cap;
  private final Clock clock;
  private final Consumer<Actor> recorded;
  private final ReentrantLock lock = Locks.tracked("calendar audit");

  @GuardedBy("lock")
  private final Deque<Entry> entries = new ArrayDeque<>();

  @GuardedBy("lock")
  private int linesInFile;

  /** The audit kept in {@code file}, telling {@code recorded} of each entry recorded from now on. */
  CalendarAudit(Path file, int cap, Clock clock, Consumer<Actor> recorded) {
    this.file = file;
    this.cap = cap;
    this.clock = clock;
    this.recorded = recorded;
    if (Files.exists(file)) {
      try {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) {
            try {
              entries.addLast(Json.mapper().readValue(line, Entry.class));
              linesInFile++;
            } catch (JsonProcessingException e) {
              // a torn last line from a crash: skip it
            }
          }
          while (entries.size() > cap) {
            entries.removeFirst();
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the calendar audit " + file, e);
      }
    }
  }

  void record(String operation, Actor actor, String summary) {
    Entry entry = new Entry(clock.instant().toString(), operation, actor.toString(), withoutCredentials(summary));
    lock.lock();
    try {
      entries.addLast(entry);
      while (entries.size() > cap) {
        entries.removeFirst();
      }
      Files.createDirectories(file.toAbsolutePath().getParent());
      if (linesInFile >= 2 * cap) {
        Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), "." + FILE + ".", ".tmp");
        List<String> lines = entries.stream().map(Json::write).toList();
        Files.write(temporary, lines, StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        linesInFile = lines.size();
      } else {
        Files.writeString(file, Json.write(entry) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        linesInFile++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the calendar audit " + file, e);
    } finally {
      lock.unlock();
    }
    Locks.assertNoneHeld("the calendar audit's listener");
    recorded.accept(actor);
  }

  /**
   * {@code text} with the user information of every URL in it replaced by {@code …}: a URL given with
   * credentials (refused by browse and discovery) must not put them in the audit.
   */
  static String withoutCredentials(String text) {
    return USERINFO.matcher(text).replaceAll("$1…@");
  }

  /** The newest {@code limit} entries, newest first. */
  List<Entry> newest(int limit) {
    lock.lock();
    try {
      List<Entry> out = new ArrayList<>(Math.min(limit, entries.size()));
      var iterator = entries.descendingIterator();
      while (iterator.hasNext() && out.size() < limit) {
        out.add(iterator.next());
      }
      return out;
    } finally {
      lock.unlock();
    }
  }
}
