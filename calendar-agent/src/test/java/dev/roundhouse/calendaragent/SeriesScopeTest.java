package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "This and following" and whole-series moves, golden: the standup series (weekly Mondays 09:00 New York from
 * 2026-03-02, COUNT=5, RDATE Mar 4, EXDATE Mar 9, Mar 16 moved to 11:00, Mar 23 cancelled) crosses the US
 * DST change of 2026-03-08, so EST occurrences are 14:00Z and EDT ones 13:00Z at 09:00.
 */
class SeriesScopeTest {
  @TempDir Path home;
  @TempDir Path files;
  private Path work;
  private CalendarHub calendar;
  private Actor agent;

  @BeforeEach
  void open() throws IOException {
    work = files.resolve("work.ics");
    Files.writeString(work, CalendarExtensionTest.ics(CalendarExtensionTest.STANDUP));
    calendar = CalendarHub.open(home, "Plan", new CalendarExtension(List.of(
        new CalendarSource("work", work, true, ZoneId.of("Europe/Berlin")))));
    agent = calendar.agent;
  }

  @AfterEach
  void close() {
    calendar.close();
  }


  private void approve(JsonNode staged) {
    calendar.invoke("decision_answer", Actor.USER, "decision", staged.get("decision").asLong(), "answer", "approve");
  }

  /** The standup occurrences in March: "instant local title". */
  private List<String> standups() {
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work",
        "from", "2026-03-01T00:00[America/New_York]", "to", "2026-04-01T00:00[America/New_York]");
    return StreamSupport.stream(events.get("events").spliterator(), false)
        .filter(e -> e.get("title").asText().startsWith("Work - Team"))
        .map(e -> e.get("start").asText() + " " + e.get("start_local").asText() + " " + e.get("title").asText()).toList();
  }

  @Test
  void thisAndFollowingSplitsTheSeriesAndMovesOverridesAcrossDst() throws IOException {
    JsonNode staged = calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "standup", "scope", "this and following",
        "recurrence_id", "2026-03-16T09:00[America/New_York]", "start", "2026-03-16T10:00[America/New_York]", "title", "Work - Team - Standup v2");
    assertThat(Files.readString(work)).isEqualTo(CalendarExtensionTest.ics(CalendarExtensionTest.STANDUP));
    approve(staged);
    String newUid = SeriesEdit.splitUid("standup", Instant.parse("2026-03-16T13:00:00Z"));
    assertThat(standups()).containsExactly(
        "2026-03-02T14:00:00Z 2026-03-02T09:00 Work - Team - Standup",       // EST, before the cut: untouched
        "2026-03-04T14:00:00Z 2026-03-04T09:00 Work - Team - Standup",       // the RDATE stays with the old series
        "2026-03-16T15:00:00Z 2026-03-16T11:00 Work - Team - Standup (moved)", // the override kept its own time and title
        "2026-03-30T14:00:00Z 2026-03-30T10:00 Work - Team - Standup v2");   // EDT, moved an hour; Mar 23 stays cancelled
    String text = Files.readString(work);
    List<String> old = CalendarStore.eventBlocks(text, "standup");
    assertThat(old).singleElement().asString()
        .contains("RRULE:FREQ=WEEKLY;UNTIL=20260316T125959Z", "EXDATE;TZID=America/New_York:20260309T090000",
            "RDATE;TZID=America/New_York:20260304T090000", "DTSTART;TZID=America/New_York:20260302T090000")
        .doesNotContain("COUNT=");
    String following = String.join("", CalendarStore.eventBlocks(text, newUid));
    assertThat(following).contains("DTSTART;TZID=America/New_York:20260316T100000", "DTEND;TZID=America/New_York:20260316T103000",
        "RRULE:FREQ=WEEKLY;COUNT=3", "RECURRENCE-ID;TZID=America/New_York:20260316T100000",
        "RECURRENCE-ID;TZID=America/New_York:20260323T100000", "DTSTART;TZID=America/New_York:20260316T110000")
        .doesNotContain("RDATE", "EXDATE");
  }

  @Test
  void deletingThisAndFollowingEndsTheSeriesBeforeTheCut() throws IOException {
    approve(calendar.invoke("calendar_stage_delete", agent, "calendar", "work", "uid", "standup", "scope", "following",
        "recurrence_id", "2026-03-16T09:00[America/New_York]"));
    assertThat(standups()).containsExactly(
        "2026-03-02T14:00:00Z 2026-03-02T09:00 Work - Team - Standup", "2026-03-04T14:00:00Z 2026-03-04T09:00 Work - Team - Standup");
    String text = Files.readString(work);
    assertThat(text).contains("RRULE:FREQ=WEEKLY;UNTIL=20260316T125959Z").doesNotContain("RECURRENCE-ID");
    // the occurrences after the cut are gone, not just hidden: a later month is empty too
    JsonNode april = calendar.invoke("calendar_events", Actor.USER, "calendar", "work", "from", "2026-04-01T00:00Z", "to", "2026-05-01T00:00Z");
    assertThat(april.get("count").asInt()).isZero();
  }

  @Test
  void thisAndFollowingFromTheFirstOccurrenceIsTheWholeSeries() throws IOException {
    approve(calendar.invoke("calendar_stage_delete", agent, "calendar", "work", "uid", "standup", "scope", "following",
        "recurrence_id", "2026-03-02T09:00[America/New_York]"));
    assertThat(Files.readString(work)).doesNotContain("UID:standup");
  }

  @Test
  void movingTheWholeSeriesReKeysOverridesAndExdatesAcrossDst() throws IOException {
    approve(calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "standup", "scope", "all",
        "start", "2026-03-02T10:00[America/New_York]"));
    assertThat(standups()).containsExactly(
        "2026-03-02T15:00:00Z 2026-03-02T10:00 Work - Team - Standup",        // EST
        "2026-03-04T15:00:00Z 2026-03-04T10:00 Work - Team - Standup",        // the RDATE moved with it
        "2026-03-16T15:00:00Z 2026-03-16T11:00 Work - Team - Standup (moved)", // still replaced, at its own 11:00
        "2026-03-30T14:00:00Z 2026-03-30T10:00 Work - Team - Standup");       // EDT; Mar 9 still excluded, Mar 23 still cancelled
    assertThat(Files.readString(work)).contains("DTSTART;TZID=America/New_York:20260302T100000", "DTEND;TZID=America/New_York:20260302T103000",
        "RRULE:FREQ=WEEKLY;COUNT=5", "EXDATE;TZID=America/New_York:20260309T100000", "RDATE;TZID=America/New_York:20260304T100000",
        "RECURRENCE-ID;TZID=America/New_York:20260316T100000", "RECURRENCE-ID;TZID=America/New_York:20260323T100000");
  }

  @Test
  void movingASeriesByADayNamedThroughOneOccurrenceShiftsEveryOccurrence() {
    // named by its third occurrence: Monday 16th -> Tuesday 17th moves every occurrence a day later
    approve(calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "standup", "scope", "all",
        "recurrence_id", "2026-03-16T09:00[America/New_York]", "start", "2026-03-17T09:00[America/New_York]"));
    assertThat(standups()).containsExactly(
        "2026-03-03T14:00:00Z 2026-03-03T09:00 Work - Team - Standup", "2026-03-05T14:00:00Z 2026-03-05T09:00 Work - Team - Standup",
        "2026-03-16T15:00:00Z 2026-03-16T11:00 Work - Team - Standup (moved)", "2026-03-31T13:00:00Z 2026-03-31T09:00 Work - Team - Standup");
  }

  @Test
  void movingARuleThatNamesItsDaysToAnotherDayIsRefused() throws IOException {
    Files.writeString(work, CalendarExtensionTest.ics("""
        BEGIN:VEVENT
        UID:mwf
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Europe/Berlin:20260302T080000
        DTEND;TZID=Europe/Berlin:20260302T083000
        RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR
        SUMMARY:Health - Sport - Run
        END:VEVENT
        """));
    String before = Files.readString(work);
    assertThatThrownBy(() -> calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "mwf", "scope", "all",
            "start", "2026-03-03T08:00[Europe/Berlin]"))
        .hasMessageContaining("names the days");
    approve(calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "mwf", "scope", "all", "start", "2026-03-02T07:00[Europe/Berlin]"));
    assertThat(Files.readString(work)).isNotEqualTo(before).contains("DTSTART;TZID=Europe/Berlin:20260302T070000", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR");
  }

  @Test
  void anAllDaySeriesSplitEndsTheDayBeforeWithADateUntil() throws IOException {
    approve(calendar.invoke("calendar_stage_delete", agent, "calendar", "work", "uid", "trip", "scope", "following",
        "recurrence_id", "2026-03-06T00:00[Europe/Berlin]"));
    assertThat(Files.readString(work)).contains("RRULE:FREQ=DAILY;UNTIL=20260305");
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work", "from", "2026-03-01T00:00Z", "to", "2026-03-10T00:00Z");
    assertThat(StreamSupport.stream(events.get("events").spliterator(), false).filter(e -> e.get("uid").asText().equals("trip"))
        .map(e -> e.get("start_local").asText()).toList()).containsExactly("2026-03-05");
  }
}
