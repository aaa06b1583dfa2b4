package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.Decision;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An update proposal says what it changes, in its title and in its request's {@code summary} and
 * {@code changes}, in every scope: a single event, one occurrence, this and following, the whole series.
 * The events are {@link CalendarExtensionTest#STANDUP}'s.
 */
class UpdateProposalChangesTest {
  @TempDir Path home;
  @TempDir Path files;
  private CalendarHub calendar;

  @BeforeEach
  void open() throws IOException {
    Path work = files.resolve("work.ics");
    Files.writeString(work, CalendarExtensionTest.ics(CalendarExtensionTest.STANDUP));
    calendar = CalendarHub.open(home, "Plan", new CalendarExtension(List.of(
        new CalendarSource("work", work, true, ZoneId.of("Europe/Berlin")))));
  }

  @AfterEach
  void close() {
    calendar.close();
  }

  private Decision stage(Object... keyValues) {
    long id = calendar.invoke("calendar_stage_update", calendar.agent, keyValues).get("decision").asLong();
    return calendar.hub.decisions().get(id).orElseThrow();
  }

  @Test
  void movingASingleEventNamesTheOldAndNewTimeAndTheDay() {
    Decision decision = stage("calendar", "work", "uid", "review", "start", "2026-03-10T16:00[Europe/Berlin]");

    assertThat(decision.title()).isEqualTo("Change \"Work - Meetings - Sprint review\" in work: moved from 14:00 to 16:00 on Tue 10 Mar");
    assertThat(decision.request().get("summary").asText()).isEqualTo("moved from 14:00 to 16:00 on Tue 10 Mar");
    assertThat(decision.request().get("changes")).isEqualTo(Json.read("""
        [{"field":"time",
          "before":{"start_local":"2026-03-10T14:00","end_local":"2026-03-10T15:00","zone":"Europe/Berlin"},
          "after":{"start_local":"2026-03-10T16:00","end_local":"2026-03-10T17:00","zone":"Europe/Berlin"}}]""", JsonNode.class));
  }

  @Test
  void movingOneOccurrenceToAnotherDayNamesBothDays() {
    Decision decision = stage("calendar", "work", "uid", "standup", "scope", "this",
        "recurrence_id", "2026-03-30T09:00[America/New_York]", "start", "2026-03-31T10:00[America/New_York]");

    assertThat(decision.title()).isEqualTo(
        "Change \"Work - Team - Standup\" (one occurrence, 2026-03-30T09:00) in work: moved from Mon 30 Mar 09:00 to Tue 31 Mar 10:00");
  }

  @Test
  void thisAndFollowingNamesTheMoveAndTheRenameFromTheFirstOccurrenceChanged() {
    Decision decision = stage("calendar", "work", "uid", "standup", "scope", "this and following",
        "recurrence_id", "2026-03-30T09:00[America/New_York]", "start", "2026-03-30T10:00[America/New_York]", "title", "Work - Team - Standup v2");

    assertThat(decision.title()).isEqualTo("Change \"Work - Team - Standup\" (from 2026-03-30T09:00 on) in work: "
        + "moved from 09:00 to 10:00 on Mon 30 Mar; renamed from \"Work - Team - Standup\" to \"Work - Team - Standup v2\"");
    assertThat(decision.request().get("changes").findValuesAsText("field")).containsExactly("time", "title");
    assertThat(decision.request().at("/changes/1/after").asText()).isEqualTo("Work - Team - Standup v2");
  }

  @Test
  void theWholeSeriesMovedFromItsFirstOccurrence() {
    Decision decision = stage("calendar", "work", "uid", "standup", "scope", "all", "start", "2026-03-02T08:30[America/New_York]");

    assertThat(decision.title()).isEqualTo("Change \"Work - Team - Standup\" (whole series) in work: moved from 09:00 to 08:30 on Mon 2 Mar");
  }

  @Test
  void aNewLocationAndARenameAreNamedWithTheirOldValues() {
    Decision decision = stage("calendar", "work", "uid", "gym", "title", "Health - Sport - Yoga", "location", "Studio 7");

    assertThat(decision.title()).isEqualTo("Change \"Health - Sport - Gym\" in work: "
        + "renamed from \"Health - Sport - Gym\" to \"Health - Sport - Yoga\"; location changed from \"Studio 5\" to \"Studio 7\"");
    JsonNode location = decision.request().at("/changes/1");
    assertThat(location.get("field").asText()).isEqualTo("location");
    assertThat(location.get("before").asText()).isEqualTo("Studio 5");
    assertThat(location.get("after").asText()).isEqualTo("Studio 7");
  }

  @Test
  void aClearedLocationAndANewDescriptionAreNamed() {
    Decision decision = stage("calendar", "work", "uid", "gym", "location", "", "description", "Bring a towel");

    assertThat(decision.request().get("summary").asText()).isEqualTo("location \"Studio 5\" removed; description added");
    assertThat(decision.request().at("/changes/0/after").isNull()).isTrue();
  }
}
