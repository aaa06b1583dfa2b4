package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Json;
import dev.roundhouse.hub.RoundhouseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One configured calendar: a local {@code .ics} file the calendar agent may read and, when {@code writable},
 * change after a human approves. The agent touches no other file. Immutable.
 *
 * @param id short name used by operations, such as {@code work}
 * @param path absolute path of the ICS file
 * @param writable whether approved proposals may change it
 * @param zone the zone floating and all-day events are read in, and the default for display
 */
public record CalendarSource(String id, Path path, boolean writable, ZoneId zone) {
  private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

  /** The file that lists the calendars, in the Roundhouse home. */
  public static final String CONFIG_FILE = "calendars.json";

  /** Names another calendars file than {@code $ROUNDHOUSE_HOME/calendars.json}. */
  public static final String CONFIG_ENV = "ROUNDHOUSE_CALENDARS";

  public CalendarSource {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(zone, "zone");
    if (!ID.matcher(id).matches()) {
      throw new RoundhouseException.InvalidInput("calendar id '" + id + "' must match " + ID);
    }
    if (!path.isAbsolute()) {
      throw new RoundhouseException.InvalidInput("calendar '" + id + "' path " + path + " is not absolute");
    }
    path = path.normalize();
  }

  /**
   * The calendars of a hub: the file named by {@code ROUNDHOUSE_CALENDARS} in {@code env}, else
   * {@code calendars.json} in {@code home}; none when that file does not exist.
   */
  public static List<CalendarSource> load(Path home, Map<String, String> env) {
    String named = env.get(CONFIG_ENV);
    Path file = named != null && !named.isBlank() ? Path.of(named) : home.resolve(CONFIG_FILE);
    if (!Files.exists(file)) {
      return List.of();
    }
    try {
      return parse(Files.readString(file), file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read calendars file " + file, e);
    }
  }

  /** Parses {@code {"calendars":[{"id":…,"path":…,"writable":…,"zone":…}]}}; {@code origin} names it in errors. */
  static List<CalendarSource> parse(String json, String origin) {
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
      if (id.isEmpty() || path.isEmpty()) {
        throw new RoundhouseException.InvalidInput("calendars file " + origin + ": every calendar needs an id and a path");
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
      sources.add(new CalendarSource(id, Path.of(path), entry.path("writable").asBoolean(false), zone));
    }
    return List.copyOf(sources);
  }
}
