package dev.roundhouse.calendaragent.caldav;

import dev.roundhouse.hub.core.RoundhouseException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.w3c.dom.Element;

/**
 * Finds a user's calendar collections on a CalDAV server (RFC 6764 section 6, RFC 4791 section 6.2.1,
 * RFC 5397): {@code PROPFIND} {@code current-user-principal} on the server's {@code /.well-known/caldav} (for a
 * URL without a path) or on the URL given, then the principal's {@code calendar-home-set}, then a Depth 1
 * {@code PROPFIND} of each home for the collections whose resource type is {@code calendar}, with their
 * display name, supported components, time zone and, where the server reports
 * {@code current-user-privilege-set}, whether the user may write them.
 *
 * <p>Credentials go only to the origin (scheme, host and port) of the URL given: a redirect, principal or
 * home on another origin is not followed but named, to discover there if the user trusts it. At most
 * {@value #MAX_REDIRECTS} redirects per request. Nothing is stored; the password is read on each request.
 *
 * <p>Thread-safe: stateless.
 */
public final class CalDavDiscovery {
  static final int MAX_REDIRECTS = 5;
  private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
  private static final Pattern TZID = Pattern.compile("(?m)^TZID[^:\\r\\n]*:([^\\r\\n]+)");

  private CalDavDiscovery() {}

  /**
   * A calendar collection found.
   *
   * @param url the collection
   * @param displayName its display name, or null
   * @param components the component types it accepts ({@code VEVENT}, {@code VTODO}, …); empty when the server
   *     does not say (then it accepts any)
   * @param readOnly whether the user may not write it, from {@code current-user-privilege-set}; null when the
   *     server does not report it
   * @param zone the IANA zone of its {@code calendar-timezone}, or null
   */
  public record Calendar(URI url, String displayName, List<String> components, Boolean readOnly, String zone) {
    public Calendar {
      components = List.copyOf(components);
    }

    /** Whether it can hold events (VEVENT), which is what the calendar agent reads and writes. */
    public boolean holdsEvents() {
      return components.isEmpty() || components.contains("VEVENT");
    }
  }

  /**
   * What discovery found.
   *
   * @param principal the user's principal URL
   * @param homes the calendar home collections looked in
   * @param calendars the calendar collections in them, in the server's order
   * @param steps what was asked and answered, one line each, for a person to follow
   */
  public record Result(URI principal, List<URI> homes, List<Calendar> calendars, List<String> steps) {
    public Result {
      homes = List.copyOf(homes);
      calendars = List.copyOf(calendars);
      steps = List.copyOf(steps);
    }
  }

  /**
   * Discovers the calendars of {@code user} starting at {@code start} (a server, a principal or a home URL).
   *
   * @param password read on each request, never kept
   */
  public static Result discover(URI start, String user, Supplier<String> password, HttpClient http, Duration timeout) {
    Objects.requireNonNull(start, "start");
    DavClient client = new DavClient(start, user, password, http, timeout);
    List<String> steps = new ArrayList<>();
    String origin = origin(start);
    String path = start.getRawPath() == null ? "" : start.getRawPath();
    List<URI> candidates = new ArrayList<>();
    if (path.isEmpty() || path.equals("/")) {
      candidates.add(start.resolve("/.well-known/caldav"));
    }
    candidates.add(path.isEmpty() ? start.resolve("/") : start);
    Answer context = null;
    for (URI candidate : candidates) {
      Answer answer = propfind(client, origin, candidate, "0", steps, "D:current-user-principal", "D:resourcetype", "C:calendar-home-set");
      if (answer.response().statusCode() == 207) {
        context = answer;
        break;
      }
      steps.add("PROPFIND " + answer.url().getRawPath() + " answered " + answer.response().statusCode());
    }
    if (context == null) {
      throw new RoundhouseException.NotFound("caldav_not_found", "found no CalDAV service at " + start + ": " + String.join("; ", steps));
    }
    DavXml.Properties found = first(client, context);
    URI principal = href(found.get(DavXml.DAV, "current-user-principal"), context.url()).orElse(context.url());
    steps.add(found.get(DavXml.DAV, "current-user-principal").isPresent()
        ? "current-user-principal: " + principal.getRawPath()
        : "no current-user-principal at " + context.url().getRawPath() + "; using it as the principal");
    requireOrigin(origin, principal, "the principal");
    List<URI> homes = hrefs(found.get(DavXml.CALDAV, "calendar-home-set"), context.url());
    if (homes.isEmpty() || !principal.equals(context.url())) {
      Answer atPrincipal = propfind(client, origin, principal, "0", steps, "C:calendar-home-set");
      client.expect(atPrincipal.response(), "PROPFIND " + principal.getRawPath());
      homes = hrefs(first(client, atPrincipal).get(DavXml.CALDAV, "calendar-home-set"), atPrincipal.url());
    }
    if (homes.isEmpty()) {
      steps.add("no calendar-home-set at " + principal.getRawPath() + "; looking in the principal itself");
      homes = List.of(principal);
    } else {
      steps.add("calendar-home-set: " + String.join(", ", homes.stream().map(URI::getRawPath).toList()));
    }
    Map<URI, Calendar> calendars = new LinkedHashMap<>();
    List<URI> searched = new ArrayList<>();
    for (URI home : homes) {
      if (!origin(home).equals(origin)) {
        steps.add("the calendar home " + home + " is on another server; run discovery with that URL if you trust it");
        continue;
      }
      searched.add(home);
      Answer listing = propfind(client, origin, home, "1", steps, "D:resourcetype", "D:displayname",
          "C:supported-calendar-component-set", "D:current-user-privilege-set", "C:calendar-timezone");
      client.multistatus(listing.response(), "PROPFIND " + home.getRawPath()); // refuses anything but a multistatus
      for (DavXml.Properties entry : DavXml.properties(listing.response().body())) {
        boolean calendar = entry.get(DavXml.DAV, "resourcetype")
            .map(type -> DavXml.children(type).stream().anyMatch(kind -> DavXml.is(kind, DavXml.CALDAV, "calendar")))
            .orElse(false);
        if (calendar && entry.href() != null) {
          URI url = listing.url().resolve(entry.href());
          calendars.putIfAbsent(url, calendar(url, entry));
        }
      }
    }
    steps.add("found " + calendars.size() + " calendar collection" + (calendars.size() == 1 ? "" : "s"));
    return new Result(principal, searched, List.copyOf(calendars.values()), steps);
  }

  private static Calendar calendar(URI url, DavXml.Properties entry) {
    String name = entry.get(DavXml.DAV, "displayname").map(e -> e.getTextContent().strip()).filter(s -> !s.isEmpty()).orElse(null);
    List<String> components = entry.get(DavXml.CALDAV, "supported-calendar-component-set")
        .map(set -> DavXml.children(set).stream().filter(c -> DavXml.is(c, DavXml.CALDAV, "comp"))
            .map(c -> c.getAttribute("name").toUpperCase(Locale.ROOT)).filter(s -> !s.isEmpty()).toList())
        .orElse(List.of());
    Boolean readOnly = entry.get(DavXml.DAV, "current-user-privilege-set").map(CalDavDiscovery::readOnly).orElse(null);
    String zone = entry.get(DavXml.CALDAV, "calendar-timezone").flatMap(e -> zone(e.getTextContent())).orElse(null);
    return new Calendar(url, name, components, readOnly, zone);
  }

  /** Read-only unless the privileges include all, write, or both bind (create) and write-content (change). */
  private static boolean readOnly(Element privileges) {
    Set<String> granted = new HashSet<>();
    for (Element privilege : DavXml.children(privileges)) {
      if (DavXml.is(privilege, DavXml.DAV, "privilege")) {
        DavXml.children(privilege).stream().filter(p -> DavXml.DAV.equals(p.getNamespaceURI())).forEach(p -> granted.add(p.getLocalName()));
      }
    }
    boolean writes = granted.contains("all") || granted.contains("write") || granted.contains("bind") && granted.contains("write-content");
    return !writes;
  }

  /** The IANA zone the TZID of a {@code calendar-timezone} VTIMEZONE names, if it is one. */
  static Optional<String> zone(String vtimezone) {
    Matcher matcher = TZID.matcher(vtimezone == null ? "" : vtimezone);
    if (!matcher.find()) {
      return Optional.empty();
    }
    String id = matcher.group(1).strip();
    try {
      return Optional.of(ZoneId.of(id).getId());
    } catch (DateTimeException e) {
      return Optional.empty();
    }
  }

  /** A PROPFIND's final answer and the URL that gave it, after same-origin redirects. */
  private record Answer(URI url, HttpResponse<byte[]> response) {}

  private static Answer propfind(DavClient client, String origin, URI url, String depth, List<String> steps, String... properties) {
    URI target = url;
    for (int hop = 0; ; hop++) {
      HttpResponse<byte[]> response = client.send("PROPFIND", target, depth, DavXml.propfind(properties), Map.of(), false);
      Optional<String> location = response.headers().firstValue("Location");
      if (!REDIRECTS.contains(response.statusCode()) || location.isEmpty()) {
        return new Answer(target, response);
      }
      if (hop == MAX_REDIRECTS) {
        throw new RoundhouseException("caldav_failed", "CalDAV server " + origin + " redirected more than " + MAX_REDIRECTS + " times from " + url);
      }
      URI next = target.resolve(location.get().strip());
      steps.add("PROPFIND " + target.getRawPath() + " redirected (" + response.statusCode() + ") to " + next.getRawPath());
      requireOrigin(origin, next, "a redirect from " + target.getRawPath());
      target = next;
    }
  }

  private static DavXml.Properties first(DavClient client, Answer answer) {
    client.multistatus(answer.response(), "PROPFIND " + answer.url().getRawPath());
    List<DavXml.Properties> responses = DavXml.properties(answer.response().body());
    if (responses.isEmpty()) {
      throw new RoundhouseException("caldav_failed", "CalDAV server " + client.server() + " said nothing about " + answer.url().getRawPath());
    }
    return responses.getFirst();
  }

  private static Optional<URI> href(Optional<Element> property, URI base) {
    List<URI> all = hrefs(property, base);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.getFirst());
  }

  private static List<URI> hrefs(Optional<Element> property, URI base) {
    if (property.isEmpty()) {
      return List.of();
    }
    return DavXml.children(property.get()).stream().filter(e -> DavXml.is(e, DavXml.DAV, "href"))
        .map(e -> e.getTextContent().strip()).filter(s -> !s.isEmpty()).map(base::resolve).distinct().toList();
  }

  private static void requireOrigin(String origin, URI url, String what) {
    if (!origin(url).equals(origin)) {
      throw new RoundhouseException.Forbidden("caldav_other_origin", what + " leads to " + url + ", another server than " + origin
          + "; the credentials are not sent there. Run discovery with that URL if you trust it");
    }
  }

  /** scheme://host:port, with the scheme's default port. */
  static String origin(URI url) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    int port = url.getPort() != -1 ? url.getPort() : scheme.equals("https") ? 443 : 80;
    return scheme + "://" + (url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT)) + ":" + port;
  }
}
