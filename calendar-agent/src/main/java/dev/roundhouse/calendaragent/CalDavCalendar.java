package dev.roundhouse.calendaragent;

import dev.roundhouse.calendaragent.caldav.CalDavCollection;
import dev.roundhouse.calendaragent.caldav.CalDavCollection.Item;
import dev.roundhouse.calendaragent.caldav.CalDavCollection.State;
import dev.roundhouse.calendaragent.caldav.CalDavCollection.Write;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A calendar in a CalDAV collection. Reads keep a mirror of the collection's objects, refreshed
 * incrementally on every read (ctag, then sync-token, then a multiget of what changed) and merged into one
 * {@link Snapshot}, which is expanded client-side like a file (Radicale does not expand recurrences). Writes
 * are conditional on the server: a create is {@code If-None-Match: *} at an href derived from the UID, an
 * update or delete is {@code If-Match} on the ETag the proposal was staged against. A 412 is never retried
 * blindly: the object is fetched again, and only if it already holds the proposed event (an approval that
 * was retried) does the change count as done; otherwise it is a conflict and the server copy stays.
 *
 * <p>Thread-safe: the mirror and snapshot are immutable values in {@link AtomicReference}s; no lock is held
 * while calling the server (two concurrent reads may both sync; either result is correct).
 */
final class CalDavCalendar implements CalendarBackend {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final CalendarSource source;
  private final CalDavCollection collection;
  private final AtomicReference<Mirror> mirror = new AtomicReference<>(new Mirror(State.EMPTY, null));

  private record Mirror(State state, Snapshot snapshot) {}

  CalDavCalendar(CalendarSource source, HttpClient http) {
    this.source = source;
    this.collection = new CalDavCollection(source.url(), source.user(), () -> source.password().reveal(source.id()), http, TIMEOUT);
  }

  CalDavCollection collection() {
    return collection;
  }

  @Override
  public Snapshot read() {
    Mirror known = mirror.get();
    State state = collection.sync(known.state());
    if (state == known.state() && known.snapshot() != null) {
      return known.snapshot();
    }
    Mirror fresh = new Mirror(state, snapshot(state));
    mirror.compareAndSet(known, fresh);
    return fresh.snapshot();
  }

  /** All objects' events in one calendar text, each VTIMEZONE once. */
  private Snapshot snapshot(State state) {
    StringBuilder zones = new StringBuilder();
    StringBuilder events = new StringBuilder();
    Set<String> zoneIds = new LinkedHashSet<>();
    Map<String, Snapshot.Located> located = new HashMap<>();
    for (Item item : state.items().values().stream().sorted((a, b) -> a.href().compareTo(b.href())).toList()) {
      for (IcsText.Block block : IcsText.blocks(item.body())) {
        if (block.name().equals("VTIMEZONE")) {
          String id = IcsEdit.unfold(block.text()).stream().filter(l -> IcsEdit.name(l).equals("TZID")).map(IcsEdit::value)
              .findFirst().orElse("");
          if (zoneIds.add(id)) {
            zones.append(block.text());
          }
        } else if (block.name().equals("VEVENT")) {
          events.append(block.text());
          if (block.uid() != null) {
            located.put(block.uid(), new Snapshot.Located(item.href(), item.etag()));
          }
        }
      }
    }
    String text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Roundhouse//CalDAV mirror//EN\r\n" + zones + events + "END:VCALENDAR\r\n";
    String version = state.syncToken() != null ? state.syncToken() : String.valueOf(state.ctag());
    return new Snapshot(version, text, CalendarStore.parse(source.id(), text), located);
  }

  @Override
  public void apply(List<EventChange> changes) {
    for (EventChange change : changes) {
      if (change.before().isEmpty()) {
        create(change);
      } else {
        replace(change);
      }
    }
  }

  private void create(EventChange change) {
    String href = collection.hrefFor(change.uid());
    Write write = collection.create(href, IcsText.withEvent("", change.after(), null));
    if (write.status() != Write.Status.WRITTEN && !change.alreadyApplied(now(href, change.uid()))) {
      throw change.conflict(); // a different event holds this href
    }
  }

  private void replace(EventChange change) {
    Snapshot.Located at = read().located(change.uid());
    if (at == null) {
      if (change.alreadyApplied("")) {
        return; // a delete whose event is already gone
      }
      throw change.conflict();
    }
    String etag = change.etag() != null ? change.etag() : at.etag();
    Write write;
    if (change.after().isEmpty()) {
      write = collection.delete(at.href(), etag);
    } else {
      String body = collection.get(at.href()).map(Item::body).orElse("");
      if (body.isEmpty()) {
        throw change.conflict();
      }
      write = collection.update(at.href(), etag, IcsText.withEventReplaced(body, change.uid(), change.after(), List.of()));
    }
    if (write.status() == Write.Status.WRITTEN) {
      return;
    }
    // 412 or 404: someone else changed it; it counts as done only if it already is what we meant to write
    if (!change.alreadyApplied(now(at.href(), change.uid()))) {
      throw change.conflict();
    }
  }

  /** The blocks of {@code uid} at {@code href} on the server now ("" when there is no such object). */
  private String now(String href, String uid) {
    return collection.get(href).map(item -> String.join("", CalendarStore.eventBlocks(item.body(), uid))).orElse("");
  }
}
