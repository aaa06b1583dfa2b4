package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One configured calendar: a local {@code .ics} file or a CalDAV collection that the calendar agent may read
 * and, when {@code writable}, change after a human approves. The agent touches no other file or URL.
 * Immutable; {@code toString()} names the password's source, never the password.
 *
 * @param id short name used by operations, such as {@code work}
 * @param path absolute path of the ICS file; null for a CalDAV calendar
 * @param url the CalDAV collection ({@code http(s)://host/user/calendar/}); null for a file
 * @param user the CalDAV user; null for a file
 * @param password where the CalDAV password comes from; null for a file
 * @param writable whether approved proposals may change it
 * @param zone the zone floating and all-day events are read in, and the default for display
 */
public record CalendarSource(String id, Path path, URI url, String user, Password password, boolean writable, ZoneId zone) {
  private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

  /** The file that lists the calendars, in the Roundhouse home. */
  public static final String CONFIG_FILE = "calendars.json";

  /** Names another calendars file than {@code $ROUNDHOUSE_HOME/calendars.json}. */
  public static final String CONFIG_ENV = "ROUNDHOUSE_CALENDARS";

  public CalendarSource {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(zone, "zone");
    if (!ID.matcher(id).matches()) {
      throw new RoundhouseException.InvalidInput("calendar id '" + id + "' must match " + ID);
    }
    if ((path == null) == (url == null)) {
      throw new RoundhouseException.InvalidInput("calendar '" + id + "' needs either a path (an ICS file) or a url (CalDAV), not "
          + (path == null ? "neither" : "both"));
    }
    if (path != null) {
      if (!path.isAbsolute()) {
        throw new RoundhouseException.InvalidInput("calendar '" + id + "' path " + path + " is not absolute");
      }
      path = path.normalize();
    } else {
      String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
        throw new RoundhouseException.InvalidInput("calendar '" + id + "' url " + url + " is not an http(s) URL");
      }
      if (url.getRawUserInfo() != null) {
        throw new RoundhouseException.InvalidInput("calendar '" + id + "': put the user in \"user\" and the password in"
            + " \"password_env\" or \"password_file\", not in the url");
      }
      if (!url.getRawPath().endsWith("/")) {
        url = URI.create(url + "/");
      }
      if (user == null || user.isBlank() || password == null) {
        throw new RoundhouseException.InvalidInput("calendar '" + id + "' (CalDAV) needs a user and a password_env or password_file");
      }
    }
  }

  /** A local ICS file. */
  public CalendarSource(String id, Path path, boolean writable, ZoneId zone) {
    this(id, path, null, null, null, writable, zone);
  }

  /** A CalDAV collection. */
  public static CalendarSource calDav(String id, URI url, String user, Password password, boolean writable, ZoneId zone) {
    return new CalendarSource(id, null, url, user, password, writable, zone);
  }

  /** Whether this is a CalDAV collection rather than a file. */
  public boolean isCalDav() {
    return url != null;
  }

  /**
   * The calendars of a hub: the file named by {@code ROUNDHOUSE_CALENDARS} in {@code env}, else
   * {@code calendars.json} in {@code home}; none when that file does not exist.
   */
  public static List<CalendarSource> load(Path home, Map<String, String> env) {
    Path file = configFile(home, env);
    return Files.exists(file) ? parse(readConfig(file), file.toString(), env) : List.of();
  }

  /** The calendars file: the one {@code ROUNDHOUSE_CALENDARS} names in {@code env}, else {@code calendars.json} in {@code home}. */
  static Path configFile(Path home, Map<String, String> env) {
    String named = env.get(CONFIG_ENV);
    return named != null && !named.isBlank() ? Path.of(named) : home.resolve(CONFIG_FILE);
  }

  static String readConfig(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read calendars file " + file, e);
    }
  }

  /**
   * Parses {@code {"calendars":[{"id":…,"path":…,"writable":…,"zone":…}, {"id":…,"url":…,"user":…,"password_env":…}]}};
   * {@code origin} names it in errors, {@code env} holds the variables {@code password_env} names.
   */
  static List<CalendarSource> parse(String json, String origin, Map<String, String> env) {
    JsonNode root;
    try {
      root = Json.mapper().readTree(json);
    } catch (IOException e) {
      throw new RoundhouseException.InvalidInput("calendars file " + origin + " is not JSON: " + e.getMessage());
    }
    JsonNode list = root == null ? null : root.get("calendars");
    if (list == null || !list.isArray()) {
      throw new RoundhouseException.InvalidInput("calendars file " + origin + " has no \"calendars\" array");
    }
    List<CalendarSource> sources = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (JsonNode entry : list) {
      String id = entry.path("id").asText("");
      String path = entry.path("path").asText("");
      String url = entry.path("url").asText("");
      if (id.isEmpty() || path.isEmpty() == url.isEmpty()) {
        throw new RoundhouseException.InvalidInput("calendars file " + origin + ": every calendar needs an id and either a path or a url");
      }
      if (entry.has("password")) {
        throw new RoundhouseException.InvalidInput("calendar '" + id + "': a password is never written in " + origin
            + "; name it with \"password_env\" (an environment variable) or \"password_file\" (a file of mode 0600)");
      }
      String zoneName = entry.path("zone").asText("UTC");
      ZoneId zone;
      try {
        zone = ZoneId.of(zoneName);
      } catch (DateTimeException e) {
        throw new RoundhouseException.InvalidInput("calendar '" + id + "' has an unknown zone '" + zoneName + "'");
      }
      if (!ids.add(id)) {
        throw new RoundhouseException.InvalidInput("calendars file " + origin + " names calendar '" + id + "' twice");
      }
      boolean writable = entry.path("writable").asBoolean(false);
      if (!path.isEmpty()) {
        sources.add(new CalendarSource(id, Path.of(path), writable, zone));
        continue;
      }
      String passwordEnv = entry.path("password_env").asText("");
      String passwordFile = entry.path("password_file").asText("");
      if (passwordEnv.isEmpty() == passwordFile.isEmpty()) {
        throw new RoundhouseException.InvalidInput("calendar '" + id + "' (CalDAV) needs exactly one of password_env and password_file");
      }
      URI uri;
      try {
        uri = new URI(url);
      } catch (URISyntaxException e) {
        throw new RoundhouseException.InvalidInput("calendar '" + id + "' url '" + url + "' is not a URL: " + e.getMessage());
      }
      Password password = passwordEnv.isEmpty() ? Password.fromFile(Path.of(passwordFile)) : Password.fromEnv(passwordEnv, env);
      sources.add(calDav(id, uri, entry.path("user").asText(""), password, writable, zone));
    }
    return List.copyOf(sources);
  }
}
