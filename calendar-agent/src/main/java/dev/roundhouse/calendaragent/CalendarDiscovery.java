package dev.roundhouse.calendaragent;

import dev.roundhouse.calendaragent.CalendarOps.CalendarConfig;
import dev.roundhouse.calendaragent.CalendarOps.DiscoverInput;
import dev.roundhouse.calendaragent.CalendarOps.Discovered;
import dev.roundhouse.calendaragent.CalendarOps.DiscoveredCalendar;
import dev.roundhouse.calendaragent.caldav.CalDavDiscovery;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code calendar_discover}: finds a user's calendar collections on a CalDAV server
 * ({@link CalDavDiscovery}) and lists them with a suggested {@code calendars.json} entry each, for a person
 * to configure. Only a person may call it: an agent could otherwise send the user's credentials to a URL of
 * its choosing. The password is named ({@code password_env} / {@code password_file}), never passed, so it
 * cannot reach the audit, a transcript or the database; it is read on each request.
 *
 * <p>Thread-safe: stateless beyond the store and the HTTP client, which are.
 */
final class CalendarDiscovery {
  private static final int MAX_ID = 64;

  private final CalendarStore store;
  private final Supplier<HttpClient> http;
  private final Map<String, String> environment;

  CalendarDiscovery(CalendarStore store, Supplier<HttpClient> http, Map<String, String> environment) {
    this.store = store;
    this.http = http;
    this.environment = Map.copyOf(environment);
  }

  Discovered discover(Actor actor, DiscoverInput in) {
    if (actor.isAgent()) {
      throw new RoundhouseException.Forbidden("people_only", "calendar_discover is for a person configuring calendars;"
          + " an agent cannot call it (it would send the user's CalDAV credentials to a URL the agent chose)");
    }
    URI url = url(in.url());
    if (in.user() == null || in.user().isBlank()) {
      throw new RoundhouseException.InvalidInput("user is required");
    }
    String passwordEnv = blankToNull(in.passwordEnv());
    String passwordFile = blankToNull(in.passwordFile());
    if ((passwordEnv == null) == (passwordFile == null)) {
      throw new RoundhouseException.InvalidInput("name the password with exactly one of password_env (an environment variable"
          + " of the hub) and password_file (an absolute path to a file of mode 0600); the password itself is never passed");
    }
    Password password = passwordEnv != null ? Password.fromEnv(passwordEnv, environment) : Password.fromFile(Path.of(passwordFile));
    String user = in.user().strip();
    CalDavDiscovery.Result result = CalDavDiscovery.discover(url, user, () -> password.revealFor("discovery at " + url),
        http.get(), CalDavCalendar.TIMEOUT);
    Set<String> ids = new HashSet<>();
    store.sources().forEach(source -> ids.add(source.id()));
    List<DiscoveredCalendar> calendars = new ArrayList<>();
    boolean unknownRights = false;
    for (CalDavDiscovery.Calendar found : result.calendars()) {
      String configuredAs = store.sources().stream().filter(source -> found.url().equals(source.url()))
          .map(CalendarSource::id).findFirst().orElse(null);
      CalendarConfig config = null;
      if (found.holdsEvents()) {
        String id = configuredAs != null ? configuredAs : uniqueId(found.url(), ids);
        unknownRights |= found.readOnly() == null;
        config = new CalendarConfig(id, found.url().toString(), user, passwordEnv, passwordFile,
            Boolean.FALSE.equals(found.readOnly()), found.zone());
      }
      calendars.add(new DiscoveredCalendar(found.url().toString(), found.displayName(), found.components(), found.holdsEvents(),
          found.readOnly(), found.zone(), configuredAs, config));
    }
    String note = calendars.isEmpty() ? "no calendar collections found; see steps"
        : "add the entries you want to the calendars list in " + CalendarSource.CONFIG_FILE + " (ids may be changed) and restart the hub"
            + (unknownRights ? "; the server does not say whether you may write some calendars, so they are suggested read-only" : "");
    return new Discovered(url.toString(), result.principal().toString(), result.homes().stream().map(URI::toString).toList(),
        calendars, result.steps(), note);
  }

  private static URI url(String text) {
    if (text == null || text.isBlank()) {
      throw new RoundhouseException.InvalidInput("url is required: the CalDAV server, such as https://dav.example.org/");
    }
    URI url;
    try {
      url = new URI(text.strip());
    } catch (URISyntaxException e) {
      throw new RoundhouseException.InvalidInput("url '" + text + "' is not a URL: " + e.getMessage());
    }
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
      throw new RoundhouseException.InvalidInput("url '" + text + "' is not an http(s) URL");
    }
    if (url.getRawUserInfo() != null) {
      throw new RoundhouseException.InvalidInput("url '" + url.getHost() + "…' carries credentials; put the user in \"user\""
          + " and name the password with password_env or password_file");
    }
    return url;
  }

  /** A calendar id from the collection's last path segment, unique among {@code taken} (which it joins). */
  static String uniqueId(URI collection, Set<String> taken) {
    String[] segments = collection.getPath().split("/");
    String last = segments.length == 0 ? "" : segments[segments.length - 1];
    String base = last.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]+", "-").replaceAll("^[-_]+", "");
    if (base.isEmpty()) {
      base = "calendar";
    }
    base = base.substring(0, Math.min(base.length(), MAX_ID - 4));
    String id = base;
    for (int n = 2; !taken.add(id); n++) {
      id = base + "-" + n;
    }
    return id;
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }
}
