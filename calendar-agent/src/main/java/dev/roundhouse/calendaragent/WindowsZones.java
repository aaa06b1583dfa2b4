package dev.roundhouse.calendaragent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Collections;

/**
 * The IANA zone behind a TZID that is not one: Windows names as Outlook and Exchange write them ({@code Eastern
 * Standard Time}), from CLDR's {@code windowsZones.xml} (territory {@code 001}, shipped as the resource
 * {@code windows-zones.properties}: the JDK has no such table on Linux, and ical4j's own guess maps
 * {@code W. Europe Standard Time} to Vienna and {@code Pacific Standard Time} to Vancouver); and for any other
 * name the calendar defines in a VTIMEZONE ({@code Customized Time Zone}), an IANA zone with the same rules
 * around the event ({@link #sameRules}).
 *
 * <p>Thread-safe: the table is immutable; the rule matches found are kept in a concurrent map.
 */
final class WindowsZones {
  private static final Map<String, ZoneId> TABLE = load();
  /** Where {@link #sameRules} looks first: CLDR's zone for each Windows zone, so a custom US Eastern is New York. */
  private static final List<ZoneId> PREFERRED = List.copyOf(new LinkedHashSet<>(TABLE.values()));
  private static final Duration REACH = Duration.ofDays(366);
  private static final Duration STEP = Duration.ofHours(6);
  private static final int MATCHES_KEPT = 1_000;
  private static final Map<Match, Optional<ZoneId>> MATCHES = new ConcurrentHashMap<>();

  private record Match(ZoneRules rules, int year) {}

  private WindowsZones() {}

  /**
   * Where {@link #sameRules} looks, in order: CLDR's zones first, then the JDK's other IANA zones, alphabetically.
   * Not ical4j's: it registers a zone id per VTIMEZONE it parses ({@code ical4j~uuid}, {@code ical4j-local-…}) with
   * the JDK, and those are no answer (and slow to look at). Read once, at first use.
   */
  private static final class Candidates {
    static final List<ZoneId> ALL = all();

    private static List<ZoneId> all() {
      List<ZoneId> candidates = new ArrayList<>(PREFERRED);
      ZoneId.getAvailableZoneIds().stream()
          .filter(id -> !id.startsWith("ical4j") && !id.startsWith("SystemV/"))
          .sorted()
          .map(ZoneId::of)
          .filter(zone -> !PREFERRED.contains(zone))
          .forEach(candidates::add);
      return List.copyOf(candidates);
    }
  }

  /** The IANA zone CLDR gives for the Windows zone {@code name}; empty for any other name. */
  static Optional<ZoneId> iana(String name) {
    return Optional.ofNullable(TABLE.get(name.strip()));
  }

  /**
   * An IANA zone whose offsets equal {@code rules}' for a year either side of {@code around} (checked every six
   * hours), preferring CLDR's zones for the Windows zones and otherwise the first in alphabetical order; empty when
   * none does.
   */
  static Optional<ZoneId> sameRules(ZoneRules rules, Instant around) {
    Match key = new Match(rules, around.atZone(ZoneId.of("UTC")).getYear());
    Optional<ZoneId> known = MATCHES.get(key);
    if (known != null) {
      return known;
    }
    Optional<ZoneId> found = find(rules, around);
    if (MATCHES.size() >= MATCHES_KEPT) {
      MATCHES.clear();
    }
    MATCHES.put(key, found);
    return found;
  }

  private static Optional<ZoneId> find(ZoneRules rules, Instant around) {
    Instant from = around.minus(REACH);
    Instant to = around.plus(REACH);
    for (ZoneId candidate : Candidates.ALL) {
      ZoneRules theirs = candidate.getRules();
      boolean same = true;
      for (Instant at = from; same && at.isBefore(to); at = at.plus(STEP)) {
        same = theirs.getOffset(at).equals(rules.getOffset(at));
      }
      if (same) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** The TZID {@code name} as an IANA zone: itself if it is one, else {@link #iana}; empty for an unknown name. */
  static Optional<ZoneId> zone(String name) {
    try {
      return Optional.of(ZoneId.of(name));
    } catch (DateTimeException e) {
      return iana(name);
    }
  }

  private static Map<String, ZoneId> load() {
    Map<String, ZoneId> table = new LinkedHashMap<>();
    try (InputStream in = WindowsZones.class.getResourceAsStream("windows-zones.properties")) {
      if (in == null) {
        throw new IllegalStateException("windows-zones.properties is missing from the calendar agent's jar");
      }
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int equals = line.indexOf('=');
        table.put(line.substring(0, equals).replace("\\ ", " ").strip(), ZoneId.of(line.substring(equals + 1).strip()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Collections.unmodifiableMap(table);
  }

  /** The names of the table, in CLDR's order (for tests). */
  static Set<String> names() {
    return TABLE.keySet();
  }
}
