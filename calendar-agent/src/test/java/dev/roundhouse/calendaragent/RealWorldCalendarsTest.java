package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calendar files in the shapes Google, Outlook and Exchange really write (fixtures in {@code realworld/}), through
 * a real hub: UTC EXDATEs on zoned series, Windows zone names, an unknown zone without VTIMEZONE, long ranges.
 */
class RealWorldCalendarsTest {
  static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  @TempDir Path home;
  @TempDir Path files;

  private CalendarHub calendar;

  @BeforeEach
  void open() throws IOException {
    calendar = CalendarHub.open(home, "Plan my month", new CalendarExtension(List.of(
        new CalendarSource("family", fixture("google.ics"), false, BERLIN),
        new CalendarSource("work", fixture("outlook.ics"), false, BERLIN),
        new CalendarSource("shared", fixture("broken-zone.ics"), false, BERLIN))));
  }

  @AfterEach
  void close() {
    calendar.close();
  }

  private Path fixture(String name) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("realworld/" + name)) {
      Path path = files.resolve(name);
      Files.copy(in, path);
      return path;
    }
  }

  // ---- 1. EXDATE in UTC on a series with a TZID

  @Test
  void utcExdateRemovesTheOccurrenceOfAZonedSeriesOnBothSidesOfDst() {
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "family",
        "from", "2026-03-01T00:00[Europe/Berlin]", "to", "2026-04-14T00:00[Europe/Berlin]");
    // Mondays 09:00 Berlin; 9 March (08:00Z, CET) and 30 March (07:00Z, CEST) are excluded in UTC
    assertThat(field(events, "5q0h1v1gq0m8l3b2sd4kq9f0ab@google.com", e -> e.get("start_local").asText()))
        .containsExactly("2026-03-02T09:00", "2026-03-16T09:00", "2026-03-23T09:00", "2026-04-06T09:00", "2026-04-13T09:00");
  }

  // ---- 2. Windows zone names

  @Test
  void windowsZoneNamesAreReportedAsTheirIanaZone() {
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work",
        "from", "2026-03-01T00:00Z", "to", "2026-03-20T00:00Z");
    String sync = "040000008200E00074C5B7101A82E00800000000B0A1B2C3D4E5D90100000000000000001000000011223344556677889900AABBCCDDEEFF";
    // Tuesdays 09:00 Eastern: 3 March in EST, 10 March in EDT, 17 March excluded
    assertThat(field(events, sync, e -> e.get("start").asText() + " " + e.get("start_local").asText() + " " + e.get("zone").asText()))
        .containsExactly("2026-03-03T14:00:00Z 2026-03-03T09:00 America/New_York", "2026-03-10T13:00:00Z 2026-03-10T09:00 America/New_York");
  }

  @Test
  void anUnknownZoneNameWithAVTimeZoneIsReadFromItAndReportedAsAnIanaZoneWithTheSameRules() {
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work",
        "from", "2026-03-05T00:00Z", "to", "2026-03-06T00:00Z");
    String call = "040000008200E00074C5B7101A82E0080000000070F1E2D3C4B5D901000000000000000010000000FFEEDDCCBBAA99887766554433221100";
    assertThat(field(events, call, e -> e.get("start").asText() + " " + e.get("start_local").asText() + " " + e.get("zone").asText()))
        .containsExactly("2026-03-05T13:00:00Z 2026-03-05T18:30 Asia/Kolkata");
  }

  // ---- 3. an unknown TZID without VTIMEZONE

  @Test
  void anUnknownZoneWithoutVTimeZoneIsAWarningAndTheRestOfTheCalendarIsAnswered() {
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "shared",
        "from", "2026-03-01T00:00Z", "to", "2026-04-01T00:00Z");
    assertThat(field(events, "shared-review-2026", e -> e.get("start").asText())).containsExactly("2026-03-11T14:00:00Z");
    assertThat(texts(events.get("warnings"))).singleElement().asString()
        .contains("shared", "shared-offsite-2026", "'Customized Time Zone 1'");
  }

  @Test
  void queriesOverAllCalendarsAnswerDespiteOneBadComponent() {
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "from", "2026-03-01T00:00Z", "to", "2026-04-01T00:00Z");
    assertThat(list(events.get("events")).stream().map(e -> e.get("calendar").asText()).distinct()).contains("family", "work", "shared");
    assertThat(texts(events.get("warnings"))).singleElement().asString().contains("'Customized Time Zone 1'");

    JsonNode search = calendar.invoke("calendar_search", Actor.USER, "text", "review", "from", "2026-03-01T00:00Z", "to", "2026-04-01T00:00Z");
    assertThat(field(search, "shared-review-2026", e -> e.get("start").asText())).containsExactly("2026-03-11T14:00:00Z");
    assertThat(texts(search.get("warnings"))).singleElement().asString().contains("'Customized Time Zone 1'");

    JsonNode busy = calendar.invoke("calendar_free_busy", Actor.USER, "from", "2026-03-11T00:00Z", "to", "2026-03-12T00:00Z");
    assertThat(list(busy.get("busy")).stream().map(b -> b.get("start").asText() + "/" + b.get("end").asText()))
        .containsExactly("2026-03-11T14:00:00Z/2026-03-11T15:00:00Z");
    assertThat(texts(busy.get("warnings"))).singleElement().asString().contains("'Customized Time Zone 1'");
  }

  // ---- 4. ranges longer than three years

  @Test
  void aYearlyEventOverEightYearsIsAnOrdinaryQuestion() {
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "family",
        "from", "2024-01-01T00:00[Europe/Berlin]", "to", "2032-01-01T00:00[Europe/Berlin]");
    assertThat(field(events, "0a7v3kq1s2nq4b5j8t0e6c9d1f@google.com", e -> e.get("start_local").asText())).containsExactly(
        "2024-07-14", "2025-07-14", "2026-07-14", "2027-07-14", "2028-07-14", "2029-07-14", "2030-07-14", "2031-07-14");
    assertThat(events.get("capped").asBoolean()).isFalse();
    assertThat(events.get("warnings")).isEmpty();
  }

  @Test
  void aLongRangeIsAnsweredInChunksEqualToOneExpansionAndCappedWithWhereToGoOn() {
    Path google = files.resolve("google.ics");
    // ten years from 1 December: the first chunk (31 days) ends inside the new-year trip (30 Dec 17:00Z - 2 Jan 11:00Z)
    Instant from = Instant.parse("2026-12-01T00:00:00Z");
    Instant to = Instant.parse("2036-12-01T00:00:00Z");
    assertThat(CalendarQueries.chunks(from, to)).contains(Instant.parse("2027-01-01T00:00:00Z")).hasSizeLessThan(16);
    Expansion.Result whole = Expansion.expand("family", CalendarStore.parse("family", read(google)), BERLIN, from, to, 5_000);
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "family", "from", from.toString(), "to", to.toString());
    assertThat(list(events.get("events")).stream().map(e -> e.get("uid").asText() + " " + e.get("start").asText()))
        .containsExactlyElementsOf(whole.occurrences().stream().map(o -> o.uid() + " " + o.start()).toList());
    assertThat(field(events, "7hj2k4l6m8n0p2q4r6s8t0u2v4@google.com", e -> e.get("start").asText())).hasSize(1);

    JsonNode capped = calendar.invoke("calendar_events", Actor.USER, "calendar", "family", "from", from.toString(), "to", to.toString(), "limit", 100);
    assertThat(capped.get("count").asInt()).isEqualTo(100);
    assertThat(capped.get("capped").asBoolean()).isTrue();
    assertThat(capped.get("next_from").asText()).isEqualTo(whole.occurrences().get(100).start());
    assertThat(capped.get("note").asText()).contains(whole.occurrences().get(100).start());
  }

  private static String read(Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<JsonNode> list(JsonNode array) {
    return array == null ? List.of() : StreamSupport.stream(array.spliterator(), false).toList();
  }

  private static List<String> texts(JsonNode array) {
    return list(array).stream().map(JsonNode::asText).toList();
  }

  private static List<String> field(JsonNode events, String uid, Function<JsonNode, String> value) {
    List<String> out = new ArrayList<>();
    for (JsonNode event : list(events.get("events"))) {
      if (event.get("uid").asText().equals(uid)) {
        out.add(value.apply(event));
      }
    }
    return out;
  }
}
