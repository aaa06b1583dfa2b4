package dev.roundhouse.calendaragent.caldav;

import dev.roundhouse.hub.core.RoundhouseException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A client for one CalDAV collection (RFC 4791) over {@code java.net.http}: incremental sync (the collection's
 * {@code getctag} first, then an RFC 6578 {@code sync-collection} REPORT from the last token, then a
 * {@code calendar-multiget} of only the changed objects) and conditional writes: a create sends
 * {@code If-None-Match: *}, an update or delete {@code If-Match} with the ETag it was based on, so a
 * concurrent change yields {@link Write.Status#PRECONDITION_FAILED} instead of being overwritten. Redirects
 * are not followed. Requests go through {@link DavClient} (a failed connection is retried once; that is safe
 * because every write is conditional). Calendar data is never expanded by the server (Radicale cannot); callers expand it.
 *
 * <p>Thread-safe: no mutable state but the request counters (concurrent maps); {@link State} is immutable.
 * No lock is held during any request.
 */
public final class CalDavCollection {
  private static final int MULTIGET_BATCH = 100;

  private final URI url;
  private final DavClient client;
  private final Map<String, AtomicLong> requests = new ConcurrentHashMap<>();
  private final AtomicLong downloaded = new AtomicLong();

  /** One calendar object resource as last seen: its href (a path on the server), ETag and iCalendar text. */
  public record Item(String href, String etag, String body) {}

  /**
   * What the client knows about the collection: its ctag and sync-token (either may be null) and its objects
   * by href. Immutable.
   */
  public record State(String ctag, String syncToken, Map<String, Item> items) {
    public State {
      items = Map.copyOf(items);
    }

    public static final State EMPTY = new State(null, null, Map.of());
  }

  /** The outcome of a conditional write. */
  public record Write(Status status, String etag) {
    public enum Status { WRITTEN, PRECONDITION_FAILED, NOT_FOUND }
  }

  /**
   * @param url the collection, ending in {@code /}
   * @param password read on each request, never stored here
   */
  public CalDavCollection(URI url, String user, Supplier<String> password, HttpClient http, Duration timeout) {
    this.url = url;
    this.client = new DavClient(url, user, password, http, timeout);
  }

  public URI url() {
    return url;
  }

  /** Requests sent so far by kind ({@code PROPFIND ctag}, {@code REPORT sync-collection}, {@code PUT}, …). */
  public Map<String, Long> requestCounts() {
    Map<String, Long> out = new HashMap<>();
    requests.forEach((kind, count) -> out.put(kind, count.get()));
    return out;
  }

  /** How many calendar objects have been downloaded (by multiget or GET) so far. */
  public long objectsDownloaded() {
    return downloaded.get();
  }

  /**
   * The collection as the server holds it now, fetching only what changed since {@code previous}: nothing but
   * one PROPFIND when the ctag is unchanged.
   */
  public State sync(State previous) {
    DavXml.Response collection = single(send("PROPFIND ctag", "PROPFIND", url, "0", DavXml.ctagQuery(), Map.of()));
    if (previous.ctag() != null && previous.ctag().equals(collection.ctag())) {
      return previous;
    }
    Map<String, String> etags = new LinkedHashMap<>();
    Map<String, Item> items = new LinkedHashMap<>(previous.items());
    String token = collection.syncToken();
    boolean incremental = false;
    if (token != null) {
      HttpResponse<byte[]> response = send("REPORT sync-collection", "REPORT", url, "1", DavXml.syncCollection(previous.syncToken()), Map.of());
      if (previous.syncToken() != null && (response.statusCode() == 403 || response.statusCode() == 409)) {
        // the server forgot our token (valid-sync-token precondition): start over
        response = send("REPORT sync-collection", "REPORT", url, "1", DavXml.syncCollection(null), Map.of());
      } else {
        incremental = previous.syncToken() != null;
      }
      DavXml.MultiStatus status = multistatus(response);
      if (!incremental) {
        items.clear();
      }
      for (DavXml.Response entry : status.responses()) {
        if (isMember(entry.href())) {
          if (entry.status() == 404) {
            items.remove(entry.href());
          } else if (entry.etag() != null) {
            etags.put(entry.href(), entry.etag());
          }
        }
      }
      token = status.syncToken() != null ? status.syncToken() : token;
    } else {
      items.clear();
      for (DavXml.Response entry : multistatus(send("PROPFIND etags", "PROPFIND", url, "1", DavXml.etagQuery(), Map.of())).responses()) {
        if (isMember(entry.href()) && entry.etag() != null) {
          etags.put(entry.href(), entry.etag());
        }
      }
    }
    List<String> wanted = new ArrayList<>();
    etags.forEach((href, etag) -> {
      Item known = previous.items().get(href);
      if (known != null && known.etag().equals(etag)) {
        items.put(href, known);
      } else {
        wanted.add(href);
      }
    });
    for (int i = 0; i < wanted.size(); i += MULTIGET_BATCH) {
      List<String> batch = wanted.subList(i, Math.min(wanted.size(), i + MULTIGET_BATCH));
      for (DavXml.Response entry : multistatus(send("REPORT calendar-multiget", "REPORT", url, "1", DavXml.multiget(batch), Map.of())).responses()) {
        if (entry.calendarData() != null && entry.etag() != null) {
          items.put(entry.href(), new Item(entry.href(), entry.etag(), entry.calendarData()));
          downloaded.incrementAndGet();
        } else if (entry.status() == 404) {
          items.remove(entry.href());
        }
      }
    }
    return new State(collection.ctag(), token, items);
  }

  /** One object now, or empty when the server has none at {@code href}. */
  public Optional<Item> get(String href) {
    HttpResponse<byte[]> response = send("GET", "GET", resolve(href), null, null, Map.of());
    if (response.statusCode() == 404) {
      return Optional.empty();
    }
    expect(response, "GET " + href);
    downloaded.incrementAndGet();
    String etag = response.headers().firstValue("ETag").orElse("");
    return Optional.of(new Item(href, etag, new String(response.body(), StandardCharsets.UTF_8)));
  }

  /** Creates {@code href} with {@code If-None-Match: *}: never replaces an object that exists. */
  public Write create(String href, String body) {
    return write("PUT", href, body, Map.of("If-None-Match", "*"));
  }

  /** Replaces {@code href} only if its ETag is still {@code etag}. */
  public Write update(String href, String etag, String body) {
    return write("PUT", href, body, Map.of("If-Match", etag));
  }

  /** Deletes {@code href} only if its ETag is still {@code etag}. */
  public Write delete(String href, String etag) {
    return write("DELETE", href, null, Map.of("If-Match", etag));
  }

  /** The href a new object with this UID is created at: the UID made safe for a path, in this collection. */
  public String hrefFor(String uid) {
    StringBuilder name = new StringBuilder();
    for (char c : uid.toCharArray()) {
      name.append(Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' || c == '.' ? c : '-');
    }
    return url.getRawPath() + name + ".ics";
  }

  private Write write(String method, String href, String body, Map<String, String> headers) {
    HttpResponse<byte[]> response = send(method, method, resolve(href), null, body, headers);
    int status = response.statusCode();
    if (status == 412) {
      return new Write(Write.Status.PRECONDITION_FAILED, null);
    }
    if (status == 404) {
      return new Write(Write.Status.NOT_FOUND, null);
    }
    expect(response, method + " " + href);
    return new Write(Write.Status.WRITTEN, response.headers().firstValue("ETag").orElse(null));
  }

  private boolean isMember(String href) {
    return href != null && !URI.create(href).getPath().equals(url.getPath());
  }

  private URI resolve(String href) {
    return url.resolve(href);
  }

  private HttpResponse<byte[]> send(String kind, String method, URI target, String depth, String body, Map<String, String> headers) {
    requests.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    // a 403 to sync-collection is the server forgetting our token (valid-sync-token): sync() handles it
    return client.send(method, target, depth, body, headers, kind.startsWith("REPORT sync"));
  }

  private DavXml.MultiStatus multistatus(HttpResponse<byte[]> response) {
    return client.multistatus(response, "REPORT/PROPFIND");
  }

  private DavXml.Response single(HttpResponse<byte[]> response) {
    List<DavXml.Response> responses = multistatus(response).responses();
    if (responses.isEmpty()) {
      throw new RoundhouseException("caldav_failed", "CalDAV server " + url + " said nothing about the collection");
    }
    return responses.getFirst();
  }

  private void expect(HttpResponse<byte[]> response, String what) {
    client.expect(response, what);
  }
}
