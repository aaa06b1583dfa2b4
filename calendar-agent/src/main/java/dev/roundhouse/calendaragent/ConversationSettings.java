package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The user's side of calendar conversations, from the {@code "conversation"} object of {@code calendars.json}:
 * {@code {"zone": "Europe/Berlin", "clock": "24h", "projects": ["life"]}}. Immutable.
 *
 * @param zone the user's time zone; null means the zone of the hub's clock (the system's)
 * @param twelveHour whether the user reads times on a 12-hour clock ({@code "clock": "12h"}); 24-hour by default
 * @param projects projects whose every task is a calendar conversation (besides tasks tagged {@code calendar})
 */
public record ConversationSettings(ZoneId zone, boolean twelveHour, Set<String> projects) {
  /** No preferences: the hub clock's zone, 24-hour, tagged tasks only. */
  public static final ConversationSettings DEFAULTS = new ConversationSettings(null, false, Set.of());

  private static final Set<String> FIELDS = Set.of("zone", "clock", "projects");

  public ConversationSettings {
    projects = Set.copyOf(projects);
  }

  /** The {@code "conversation"} object of the calendars file (see {@link CalendarSource#load}); defaults without one. */
  public static ConversationSettings load(Path home, Map<String, String> env) {
    Path file = CalendarSource.configFile(home, env);
    return Files.exists(file) ? parse(CalendarSource.readConfig(file), file.toString()) : DEFAULTS;
  }

  static ConversationSettings parse(String json, String origin) {
    JsonNode root;
    try {
      root = Json.mapper().readTree(json);
    } catch (IOException e) {
      throw new RoundhouseException.InvalidInput("calendars file " + origin + " is not JSON: " + e.getMessage());
    }
    JsonNode conversation = root == null ? null : root.get("conversation");
    if (conversation == null || conversation.isNull()) {
      return DEFAULTS;
    }
    if (!conversation.isObject()) {
      throw new RoundhouseException.InvalidInput("calendars file " + origin + ": \"conversation\" must be an object");
    }
    for (Iterator<String> names = conversation.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        throw new RoundhouseException.InvalidInput("calendars file " + origin + ": \"conversation\" has an unknown setting '"
            + name + "' (known: zone, clock, projects)");
      }
    }
    ZoneId zone = null;
    if (conversation.hasNonNull("zone")) {
      String name = conversation.get("zone").asText();
      try {
        zone = ZoneId.of(name);
      } catch (DateTimeException e) {
        throw new RoundhouseException.InvalidInput("calendars file " + origin + ": conversation zone '" + name
            + "' is not an IANA zone such as Europe/Berlin");
      }
    }
    String clock = conversation.path("clock").asText("24h");
    if (!clock.equals("24h") && !clock.equals("12h")) {
      throw new RoundhouseException.InvalidInput("calendars file " + origin + ": conversation clock '" + clock + "' must be \"24h\" or \"12h\"");
    }
    Set<String> projects = new LinkedHashSet<>();
    JsonNode list = conversation.path("projects");
    if (!list.isMissingNode() && !list.isArray()) {
      throw new RoundhouseException.InvalidInput("calendars file " + origin + ": conversation projects must be an array of project names");
    }
    list.forEach(project -> projects.add(project.asText()));
    return new ConversationSettings(zone, clock.equals("12h"), projects);
  }
}
