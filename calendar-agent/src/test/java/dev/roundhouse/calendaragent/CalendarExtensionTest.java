package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The calendar agent through a real hub, on real ICS files in a temporary folder. */
class CalendarExtensionTest {
  @TempDir Path home;
  @TempDir Path files;

  private Path work;
  private Path holidays;
  private CalendarHub calendar;
  private Hub hub;
  private Actor agent;
  private long task;

  static final String HEADER = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//test//EN\r\n";
  static final String FOOTER = "END:VCALENDAR\r\n";

  /** Weekly on Mondays 09:00 New York across the DST change of 2026-03-08, with RDATE, EXDATE and overrides. */
  static final String STANDUP = """
      BEGIN:VEVENT
      UID:standup
      DTSTAMP:20260101T000000Z
      DTSTART;TZID=America/New_York:20260302T090000
      DTEND;TZID=America/New_York:20260302T093000
      RRULE:FREQ=WEEKLY;COUNT=5
      RDATE;TZID=America/New_York:20260304T090000
      EXDATE;TZID=America/New_York:20260309T090000
      SUMMARY:Work - Team - Standup
      END:VEVENT
      BEGIN:VEVENT
      UID:standup
      DTSTAMP:20260101T000000Z
      RECURRENCE-ID;TZID=America/New_York:20260316T090000
      DTSTART;TZID=America/New_York:20260316T110000
      DTEND;TZID=America/New_York:20260316T113000
      SUMMARY:Work - Team - Standup (moved)
      END:VEVENT
      BEGIN:VEVENT
      UID:standup
      DTSTAMP:20260101T000000Z
      RECURRENCE-ID;TZID=America/New_York:20260323T090000
      DTSTART;TZID=America/New_York:20260323T090000
      DTEND;TZID=America/New_York:20260323T093000
      STATUS:CANCELLED
      SUMMARY:Work - Team - Standup
      END:VEVENT
      BEGIN:VEVENT
      UID:trip
      DTSTAMP:20260101T000000Z
      DTSTART;VALUE=DATE:20260305
      DTEND;VALUE=DATE:20260306
      RRULE:FREQ=DAILY;COUNT=2
      SUMMARY:Private - Travel - Lisbon
      TRANSP:TRANSPARENT
      END:VEVENT
      BEGIN:VEVENT
      UID:gym
      DTSTAMP:20260101T000000Z
      DTSTART:20260304T080000
      DTEND:20260304T090000
      SUMMARY:Health - Sport - Gym
      LOCATION:Studio 5
      END:VEVENT
      BEGIN:VEVENT
      UID:review
      DTSTAMP:20260101T000000Z
      DTSTART;TZID=Europe/Berlin:20260310T140000
      DTEND;TZID=Europe/Berlin:20260310T150000
      SUMMARY:Work - Meetings - Sprint review
      END:VEVENT
      """;

  @BeforeEach
  void open() throws IOException {
    work = files.resolve("work.ics");
    holidays = files.resolve("holidays.ics");
    Files.writeString(work, ics(STANDUP));
    Files.writeString(holidays, ics("""
        BEGIN:VEVENT
        UID:easter
        DTSTAMP:20260101T000000Z
        DTSTART;VALUE=DATE:20260405
        DTEND;VALUE=DATE:20260406
        SUMMARY:Public - Holiday - Easter
        END:VEVENT
        """));
    calendar = CalendarHub.open(home, "Plan my month", new CalendarExtension(List.of(
        new CalendarSource("work", work, true, ZoneId.of("Europe/Berlin")),
        new CalendarSource("holidays", holidays, false, ZoneId.of("Europe/Berlin")))));
    hub = calendar.hub;
    task = calendar.task;
    agent = Actor.agent(task);
  }

  @AfterEach
  void close() {
    calendar.close();
  }

  static String ics(String events) {
    return HEADER + events.replace("\n", "\r\n") + FOOTER;
  }


  private JsonNode answer(long decision, String answer) {
    return calendar.invoke("decision_answer", Actor.USER, "decision", decision, "answer", answer);
  }

  private static List<JsonNode> list(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false).toList();
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

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }

  // ---- queries

  @Test
  void weeklyRuleAcrossDstAppliesRdateExdateAndMovedAndCancelledOverrides() {
    JsonNode events = calendar.invoke("calendar_events", agent, "calendar", "work",
        "from", "2026-03-01T00:00[America/New_York]", "to", "2026-04-01T00:00[America/New_York]");
    // Mar 2 EST; Mar 4 from RDATE; Mar 9 excluded; Mar 16 moved to 11:00 EDT; Mar 23 cancelled; Mar 30 EDT
    assertThat(field(events, "standup", e -> e.get("start").asText())).containsExactly(
        "2026-03-02T14:00:00Z", "2026-03-04T14:00:00Z", "2026-03-16T15:00:00Z", "2026-03-30T13:00:00Z");
    assertThat(field(events, "standup", e -> e.get("start_local").asText())).containsExactly(
        "2026-03-02T09:00", "2026-03-04T09:00", "2026-03-16T11:00", "2026-03-30T09:00");
    assertThat(field(events, "standup", e -> e.get("zone").asText())).containsOnly("America/New_York");
    assertThat(field(events, "standup", e -> e.get("overridden").asText())).containsExactly("false", "false", "true", "false");
    assertThat(field(events, "standup", e -> e.get("recurrence_id").asText())).element(2).isEqualTo("2026-03-16T13:00:00Z");
    assertThat(field(events, "standup", e -> e.get("title").asText())).element(2).isEqualTo("Work - Team - Standup (moved)");
    assertThat(events.get("capped").asBoolean()).isFalse();
  }

  @Test
  void movedOccurrenceLeavesItsOriginalSlotAndAppearsAtItsNewTime() {
    JsonNode original = calendar.invoke("calendar_events", Actor.USER, "from", "2026-03-16T08:00[America/New_York]", "to", "2026-03-16T10:00[America/New_York]");
    assertThat(field(original, "standup", e -> e.get("start").asText())).isEmpty();
    JsonNode moved = calendar.invoke("calendar_events", Actor.USER, "from", "2026-03-16T10:30[America/New_York]", "to", "2026-03-16T12:00[America/New_York]");
    assertThat(field(moved, "standup", e -> e.get("start").asText())).containsExactly("2026-03-16T15:00:00Z");
  }

  @Test
  void allDayAndFloatingEventsAreReadInTheCalendarZone() {
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work", "from", "2026-03-04T00:00[Europe/Berlin]", "to", "2026-03-08T00:00[Europe/Berlin]");
    assertThat(field(events, "trip", e -> e.get("start_local").asText() + "/" + e.get("end_local").asText()))
        .containsExactly("2026-03-05/2026-03-06", "2026-03-06/2026-03-07");
    assertThat(field(events, "trip", e -> e.get("start").asText())).containsExactly("2026-03-04T23:00:00Z", "2026-03-05T23:00:00Z");
    assertThat(field(events, "trip", e -> e.get("all_day").asText() + " " + e.get("zone").asText())).containsOnly("true Europe/Berlin");
    assertThat(field(events, "gym", e -> e.get("start").asText() + " " + e.get("floating").asText() + " " + e.get("zone").asText()))
        .containsExactly("2026-03-04T07:00:00Z true Europe/Berlin");
  }

  @Test
  void highFrequencyRulesAreCappedAndSaySo() throws IOException {
    Files.writeString(work, ics("""
        BEGIN:VEVENT
        UID:flood
        DTSTAMP:20260101T000000Z
        DTSTART:20260301T000000Z
        DTEND:20260301T000001Z
        RRULE:FREQ=SECONDLY
        SUMMARY:Spam - Spam - Every second
        END:VEVENT
        """));
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work", "from", "2026-03-01T00:00Z", "to", "2026-04-01T00:00Z");
    assertThat(events.get("capped").asBoolean()).isTrue();
    assertThat(events.get("count").asInt()).isLessThanOrEqualTo(Expansion.MAX_OCCURRENCES).isPositive();
    assertThat(events.get("note").asText()).contains("capped");
  }

  @Test
  void searchFreeBusyOneEventAndTheList() {
    JsonNode found = calendar.invoke("calendar_search", Actor.USER, "text", "studio", "from", "2026-03-01T00:00Z", "to", "2026-04-01T00:00Z");
    assertThat(field(found, "gym", e -> e.get("title").asText())).containsExactly("Health - Sport - Gym");

    JsonNode busy = calendar.invoke("calendar_free_busy", Actor.USER, "from", "2026-03-04T00:00[Europe/Berlin]", "to", "2026-03-05T00:00[Europe/Berlin]");
    // the gym (07:00-08:00Z) and the RDATE standup (14:00-14:30Z); the transparent trip is free
    assertThat(list(busy.get("busy"))).extracting(b -> b.get("start").asText() + "-" + b.get("end").asText())
        .containsExactly("2026-03-04T07:00:00Z-2026-03-04T08:00:00Z", "2026-03-04T14:00:00Z-2026-03-04T14:30:00Z");

    JsonNode one = calendar.invoke("calendar_event", Actor.USER, "calendar", "work", "uid", "standup", "recurrence_id", "2026-03-16T09:00[America/New_York]");
    assertThat(one.get("rrule").asText()).isEqualTo("FREQ=WEEKLY;COUNT=5");
    assertThat(one.get("overrides").asInt()).isEqualTo(2);
    assertThat(one.at("/occurrence/start").asText()).isEqualTo("2026-03-16T15:00:00Z");
    assertThatThrownBy(() -> calendar.invoke("calendar_event", Actor.USER, "calendar", "work", "uid", "standup", "recurrence_id", "2026-03-23T09:00[America/New_York]"))
        .isInstanceOf(RoundhouseException.NotFound.class).hasMessageContaining("cancelled");

    JsonNode calendars = calendar.invoke("calendar_list", Actor.USER);
    assertThat(list(calendars.get("calendars"))).extracting(c -> c.get("id").asText() + ":" + c.get("writable").asBoolean())
        .containsExactly("work:true", "holidays:false");
    assertThat(list(calendars.get("categories"))).extracting(JsonNode::asText)
        .contains("Work - Team", "Health - Sport", "Public - Holiday");
  }

  @Test
  void timesWithoutAZoneAreRefused() {
    assertThatThrownBy(() -> calendar.invoke("calendar_events", Actor.USER, "from", "2026-03-01T00:00", "to", "2026-04-01T00:00Z"))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("has no zone");
    assertThatThrownBy(() -> calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "Work - Meetings - X",
            "start", "2026-03-02T09:00+05:00[Europe/Berlin]", "end", "2026-03-02T10:00[Europe/Berlin]"))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("is not the offset of Europe/Berlin");
  }

  // ---- proposals

  @Test
  void approvedCreateIsWrittenExactlyOnceAndOnlyAfterApproval() throws IOException {
    String before = Files.readString(work);
    JsonNode staged = calendar.invoke("calendar_stage_create", agent, "calendar", "work",
        "title", "  work -  meetings   - Planning  ", "start", "2026-03-12T10:00[Europe/Berlin]", "end", "2026-03-12T11:30[Europe/Berlin]",
        "location", "Room 1; 2nd floor");
    long decision = staged.get("decision").asLong();
    assertThat(staged.get("title").asText()).isEqualTo("Work - Meetings - Planning");
    assertThat(staged.get("status").asText()).isEqualTo(Decision.PENDING);
    assertThat(Files.readString(work)).isEqualTo(before);

    Decision pending = hub.decisions().get(decision).orElseThrow();
    assertThat(pending.kind()).isEqualTo(CalendarExtension.KIND);
    assertThat(pending.options()).containsExactly("approve", "reject");
    assertThat(pending.taskId()).isEqualTo(task);
    assertThat(pending.request().get("before").isNull()).isTrue();
    assertThat(pending.request().at("/after/start").asText()).isEqualTo("2026-03-12T09:00:00Z");
    assertThat(pending.request().at("/after/zone").asText()).isEqualTo("Europe/Berlin");

    assertThatThrownBy(() -> calendar.invoke("decision_answer", agent, "decision", decision, "answer", "approve"))
        .isInstanceOf(RoundhouseException.class).hasMessageContaining("a person must");
    assertThat(Files.readString(work)).isEqualTo(before);

    answer(decision, "approve");
    String after = Files.readString(work);
    String uid = CalendarExtension.uidFor(decision);
    assertThat(count(after, "UID:" + uid)).isEqualTo(1);
    assertThat(after).startsWith(before.substring(0, before.length() - FOOTER.length()));
    assertThat(after).contains("BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "LOCATION:Room 1\\; 2nd floor");
    assertThatThrownBy(() -> answer(decision, "approve")).isInstanceOf(RoundhouseException.Conflict.class);
    assertThat(Files.readString(work)).isEqualTo(after);

    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work", "from", "2026-03-12T00:00Z", "to", "2026-03-13T00:00Z");
    assertThat(field(events, uid, e -> e.get("start").asText() + " " + e.get("zone").asText() + " " + e.get("location").asText()))
        .containsExactly("2026-03-12T09:00:00Z Europe/Berlin Room 1; 2nd floor");
  }

  @Test
  void aRetriedCommitFindsItsEventAndWritesNothing() throws IOException {
    CalendarHub.Written retried = calendar.createWrittenBeforeItsAnswer(work);
    long decision = retried.decision();
    String written = retried.ics();
    answer(decision, "approve");
    assertThat(Files.readString(work)).isEqualTo(written);
    assertThat(hub.decisions().get(decision).orElseThrow().answer()).isEqualTo("approve");
  }

  @Test
  void aCreateWhoseUidHoldsADifferentEventIsAConflictNotADuplicateOrALoss() throws IOException {
    long decision = calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "Work - Meetings - Retro",
        "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z").get("decision").asLong();
    // an event left by an earlier database whose decision ids restarted: same UID, other content
    String uid = CalendarExtension.uidFor(decision);
    String written = Files.readString(work).replace(FOOTER, "BEGIN:VEVENT\r\nUID:" + uid + "\r\nDTSTAMP:20250101T000000Z\r\n"
        + "DTSTART:20250313T100000Z\r\nDTEND:20250313T110000Z\r\nSUMMARY:Old - Old - Old\r\nEND:VEVENT\r\n" + FOOTER);
    Files.writeString(work, written);
    assertThatThrownBy(() -> answer(decision, "approve")).isInstanceOf(RoundhouseException.Conflict.class)
        .hasMessageContaining("already holds a different event '" + uid + "'");
    assertThat(Files.readString(work)).isEqualTo(written);
    assertThat(hub.decisions().get(decision).orElseThrow().pending()).isTrue();
  }

  @Test
  void proposalsBelongToTheProjectAndTaskOfTheTurnThatStagedThem() {
    long created = calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "Work - Meetings - Retro",
        "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z").get("decision").asLong();
    long moved = calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "review", "start", "2026-03-10T16:00[Europe/Berlin]")
        .get("decision").asLong();
    long deleted = calendar.invoke("calendar_stage_delete", agent, "calendar", "work", "uid", "gym").get("decision").asLong();
    long life = calendar.invoke("project_get", Actor.USER, "project", "life").get("id").asLong();

    JsonNode listed = calendar.invoke("decision_list", Actor.USER, "project", "life");
    assertThat(list(listed.get("decisions")).stream().map(d -> d.get("id").asLong())).containsExactlyInAnyOrder(created, moved, deleted);
    assertThat(list(listed.get("decisions"))).allSatisfy(d -> {
      assertThat(d.get("project_id").asLong()).isEqualTo(life);
      assertThat(d.get("task_id").asLong()).isEqualTo(task);
    });
    assertThat(list(listed.get("pending_by_project"))).singleElement().satisfies(count -> {
      assertThat(count.get("project").asText()).isEqualTo("life");
      assertThat(count.get("pending").asInt()).isEqualTo(3);
    });
  }

  @Test
  void aProposalStagedOutsideATaskBelongsToNoProject() {
    long staged = calendar.invoke("calendar_stage_create", Actor.client("cli"), "calendar", "work", "title", "Work - Meetings - Retro",
        "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z").get("decision").asLong();

    Decision decision = hub.decisions().get(staged).orElseThrow();
    assertThat(decision.projectId()).isNull();
    assertThat(decision.taskId()).isNull();
  }

  @Test
  void rejectWritesNothing() throws IOException {
    String before = Files.readString(work);
    long decision = calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "Work - Meetings - Nope",
        "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z").get("decision").asLong();
    answer(decision, "reject");
    assertThat(Files.readString(work)).isEqualTo(before);
    assertThat(hub.decisions().get(decision).orElseThrow().status()).isEqualTo(Decision.ANSWERED);
  }

  @Test
  void stagingIsRefusedForReadOnlyCalendarsBadTitlesAndBackwardTimes() {
    assertThatThrownBy(() -> calendar.invoke("calendar_stage_create", agent, "calendar", "holidays", "title", "Public - Holiday - Mine",
            "start", "2026-03-13", "all_day", true))
        .isInstanceOf(RoundhouseException.Forbidden.class).hasMessageContaining("calendar 'holidays' is read-only");
    assertThatThrownBy(() -> calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "Dentist",
            "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z"))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("Category - SubCategory - Title");
    assertThatThrownBy(() -> calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "A - B - C",
            "start", "2026-03-13T10:00Z", "end", "2026-03-13T09:00Z"))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("is not after start");
    assertThatThrownBy(() -> calendar.invoke("calendar_stage_create", agent, "calendar", "nope", "title", "A - B - C",
            "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z"))
        .isInstanceOf(RoundhouseException.NotFound.class).hasMessageContaining("no calendar 'nope'");
    assertThat(hub.operations().invoke("decision_list", Actor.USER, null).get("pending").asInt()).isZero();
  }

  @Test
  void aStageThatDuplicatesAnExistingEventIsFlagged() {
    JsonNode staged = calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "work - meetings - sprint review",
        "start", "2026-03-10T14:00[Europe/Berlin]", "end", "2026-03-10T15:00[Europe/Berlin]");
    assertThat(list(staged.get("duplicates"))).extracting(d -> d.get("uid").asText()).containsExactly("review");
    Decision decision = hub.decisions().get(staged.get("decision").asLong()).orElseThrow();
    assertThat(decision.title()).contains("possible duplicate");
    assertThat(decision.request().at("/duplicates/0/uid").asText()).isEqualTo("review");

    JsonNode fresh = calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "Work - Meetings - Sprint review",
        "start", "2026-03-10T15:00[Europe/Berlin]", "end", "2026-03-10T16:00[Europe/Berlin]");
    assertThat(fresh.get("duplicates")).isEmpty();
  }

  @Test
  void allDayAndBatchCreatesAreEachTheirOwnDecision() throws IOException {
    JsonNode batch = calendar.invoke("calendar_stage_batch_create", agent, "events", List.of(
        Map.of("calendar", "work", "title", "Private - Travel - Porto", "start", "2026-05-01", "end", "2026-05-03", "all_day", true),
        Map.of("calendar", "work", "title", "Work - Course - Lecture 1", "start", "2026-05-04T10:00[Europe/Berlin]", "end", "2026-05-04T12:00[Europe/Berlin]")));
    List<JsonNode> proposals = list(batch.get("proposals"));
    assertThat(proposals).hasSize(2);
    answer(proposals.get(0).get("decision").asLong(), "approve");
    answer(proposals.get(1).get("decision").asLong(), "reject");
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work", "from", "2026-05-01T00:00[Europe/Berlin]", "to", "2026-05-05T00:00[Europe/Berlin]");
    assertThat(list(events.get("events"))).extracting(e -> e.get("title").asText() + " " + e.get("all_day").asBoolean() + " " + e.get("end_local").asText())
        .containsExactly("Private - Travel - Porto true 2026-05-03");

    assertThatThrownBy(() -> calendar.invoke("calendar_stage_batch_create", agent, "events", List.of(
            Map.of("calendar", "work", "title", "A - B - C", "start", "2026-05-01T10:00Z", "end", "2026-05-01T11:00Z"),
            Map.of("calendar", "work", "title", "A - B - D", "start", "2026-05-01T10:00"))))
        .hasMessageContaining("events[1]");
  }

  @Test
  void approvedDeleteRemovesTheWholeSeriesAndNothingElse() throws IOException {
    String before = Files.readString(work);
    JsonNode staged = calendar.invoke("calendar_stage_delete", agent, "calendar", "work", "uid", "standup");
    Decision decision = hub.decisions().get(staged.get("decision").asLong()).orElseThrow();
    assertThat(decision.request().at("/before/rrule").asText()).isEqualTo("FREQ=WEEKLY;COUNT=5");
    assertThat(decision.request().get("after").isNull()).isTrue();
    assertThat(Files.readString(work)).isEqualTo(before);
    answer(decision.id(), "approve");
    String after = Files.readString(work);
    assertThat(after).doesNotContain("UID:standup").contains("UID:trip", "UID:gym", "UID:review");
    assertThat(CalendarStore.eventBlocks(after, "review")).isEqualTo(CalendarStore.eventBlocks(before, "review"));
  }

  @Test
  void aDeleteOfAnEventChangedSinceStagingIsRefusedAndStaysPending() throws IOException {
    long decision = calendar.invoke("calendar_stage_delete", agent, "calendar", "work", "uid", "review").get("decision").asLong();
    Files.writeString(work, Files.readString(work).replace("Sprint review", "Sprint review (edited)"));
    assertThatThrownBy(() -> answer(decision, "approve")).hasMessageContaining("changed since proposal");
    assertThat(hub.decisions().get(decision).orElseThrow().pending()).isTrue();
    assertThat(Files.readString(work)).contains("UID:review");
  }

  private List<String> standupStarts() {
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work",
        "from", "2026-03-01T00:00[America/New_York]", "to", "2026-04-01T00:00[America/New_York]");
    return field(events, "standup", e -> e.get("start_local").asText() + " " + e.get("title").asText());
  }

  @Test
  void updatingOneOccurrenceWritesAnOverrideAndKeepsTheSeries() throws IOException {
    JsonNode staged = calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "standup", "scope", "this",
        "recurrence_id", "2026-03-30T09:00[America/New_York]", "start", "2026-03-30T10:00[America/New_York]");
    Decision decision = hub.decisions().get(staged.get("decision").asLong()).orElseThrow();
    assertThat(decision.title()).isEqualTo("Change \"Work - Team - Standup\" (one occurrence, 2026-03-30T09:00) in work: moved from 09:00 to 10:00 on Mon 30 Mar");
    assertThat(decision.request().at("/before/occurrence/start_local").asText()).isEqualTo("2026-03-30T09:00");
    assertThat(decision.request().at("/after/ics").asText())
        .contains("RECURRENCE-ID;TZID=America/New_York:20260330T090000", "DTSTART;TZID=America/New_York:20260330T100000",
            "DTEND;TZID=America/New_York:20260330T103000", "SEQUENCE:1");
    answer(decision.id(), "approve");
    assertThat(standupStarts()).containsExactly(
        "2026-03-02T09:00 Work - Team - Standup", "2026-03-04T09:00 Work - Team - Standup",
        "2026-03-16T11:00 Work - Team - Standup (moved)", "2026-03-30T10:00 Work - Team - Standup");
    assertThat(Files.readString(work)).contains("RRULE:FREQ=WEEKLY;COUNT=5", "EXDATE;TZID=America/New_York:20260309T090000");
  }

  @Test
  void updatingAnOverriddenOccurrenceEditsThatOverride() throws IOException {
    long id = calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "standup", "scope", "this",
        "recurrence_id", "2026-03-16T09:00[America/New_York]", "title", "Work - Team - Standup (in the big room)").get("decision").asLong();
    answer(id, "approve");
    assertThat(count(Files.readString(work), "RECURRENCE-ID;TZID=America/New_York:20260316T090000")).isEqualTo(1);
    assertThat(standupStarts()).contains("2026-03-16T11:00 Work - Team - Standup (in the big room)").hasSize(4);
  }

  @Test
  void aWholeSeriesUpdateRetitlesTheSeriesButKeepsOverridesOwnTitles() {
    assertThatThrownBy(() -> calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "standup", "title", "Work - Team - Daily"))
        .hasMessageContaining("say scope 'this'");
    assertThatThrownBy(() -> calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "standup", "scope", "all",
            "end", "2026-03-02T10:00[America/New_York]"))
        .hasMessageContaining("end alone is not enough");
    long id = calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "standup", "scope", "all", "title", "work - team -  Daily").get("decision").asLong();
    assertThat(hub.decisions().get(id).orElseThrow().title()).isEqualTo("Change \"Work - Team - Standup\" (whole series) in work: renamed from \"Work - Team - Standup\" to \"Work - Team - Daily\"");
    answer(id, "approve");
    assertThat(standupStarts()).containsExactly(
        "2026-03-02T09:00 Work - Team - Daily", "2026-03-04T09:00 Work - Team - Daily",
        "2026-03-16T11:00 Work - Team - Standup (moved)", "2026-03-30T09:00 Work - Team - Daily");
  }

  @Test
  void movingASingleEventKeepsItsDurationAndARetriedCommitWritesNothing() throws IOException {
    long id = calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "review", "start", "2026-03-10T16:00[Europe/Berlin]")
        .get("decision").asLong();
    Decision decision = hub.decisions().get(id).orElseThrow();
    // as if an earlier approval wrote the change and the hub stopped before recording the answer
    String written = IcsText.withEventReplaced(Files.readString(work), "review", decision.request().at("/after/ics").asText(), List.of());
    Files.writeString(work, written);
    answer(id, "approve");
    assertThat(Files.readString(work)).isEqualTo(written);
    JsonNode events = calendar.invoke("calendar_events", Actor.USER, "calendar", "work", "from", "2026-03-10T00:00Z", "to", "2026-03-11T00:00Z");
    assertThat(field(events, "review", e -> e.get("start_local").asText() + "-" + e.get("end_local").asText()))
        .containsExactly("2026-03-10T16:00-2026-03-10T17:00");
  }

  @Test
  void deletingOneOccurrenceAddsAnExdateInTheSeriesZone() throws IOException {
    long first = calendar.invoke("calendar_stage_delete", agent, "calendar", "work", "uid", "standup", "scope", "this",
        "recurrence_id", "2026-03-02T09:00[America/New_York]").get("decision").asLong();
    answer(first, "approve");
    long moved = calendar.invoke("calendar_stage_delete", agent, "calendar", "work", "uid", "standup", "scope", "this",
        "recurrence_id", "2026-03-16T09:00[America/New_York]").get("decision").asLong();
    answer(moved, "approve");
    String text = Files.readString(work);
    assertThat(text).contains("EXDATE;TZID=America/New_York:20260302T090000", "EXDATE;TZID=America/New_York:20260316T090000", "RRULE:FREQ=WEEKLY;COUNT=5")
        .doesNotContain("RECURRENCE-ID;TZID=America/New_York:20260316T090000");
    assertThat(standupStarts()).containsExactly("2026-03-04T09:00 Work - Team - Standup", "2026-03-30T09:00 Work - Team - Standup");
  }

  @Test
  void queriesStagesApprovalsRejectionsAndRefusalsAreAudited() {
    calendar.invoke("calendar_events", agent, "from", "2026-03-01T00:00Z", "to", "2026-03-02T00:00Z");
    long approved = calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "Work - Meetings - One",
        "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z").get("decision").asLong();
    long rejected = calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "Work - Meetings - Two",
        "start", "2026-03-14T10:00Z", "end", "2026-03-14T11:00Z").get("decision").asLong();
    answer(approved, "approve");
    calendar.invoke("decision_answer", Actor.USER, "decision", rejected, "answer", "reject", "message", "not that day");
    assertThatThrownBy(() -> calendar.invoke("calendar_stage_create", agent, "calendar", "holidays", "title", "A - B - C", "start", "2026-03-13", "all_day", true));

    List<String> audit = list(calendar.invoke("calendar_audit", Actor.USER).get("entries")).stream()
        .map(e -> e.get("operation").asText() + " " + e.get("actor").asText() + " " + e.get("summary").asText()).toList();
    assertThat(audit).hasSize(6);
    assertThat(audit.get(0)).startsWith("calendar_stage_create agent:" + task + " refused: calendar 'holidays' is read-only");
    assertThat(audit.get(1)).startsWith("decision_answer user rejected decision " + rejected).endsWith("(not that day)");
    assertThat(audit.get(2)).startsWith("decision_answer user approved decision " + approved);
    assertThat(audit.get(3)).isEqualTo("calendar_stage_create agent:" + task + " decision " + rejected + ": Work - Meetings - Two");
    assertThat(audit.get(5)).startsWith("calendar_events agent:" + task).endsWith("-> 0 occurrences");
  }

  @Test
  void theAuditKeepsARollingCapAcrossRestarts() {
    Path file = home.resolve("audit-test.jsonl");
    CalendarAudit audit = new CalendarAudit(file, 3, java.time.Clock.systemUTC(), actor -> {});
    for (int i = 0; i < 10; i++) {
      audit.record("calendar_list", Actor.USER, "call " + i);
    }
    assertThat(audit.newest(10)).extracting(CalendarAudit.Entry::summary).containsExactly("call 9", "call 8", "call 7");
    assertThat(new CalendarAudit(file, 3, java.time.Clock.systemUTC(), actor -> {}).newest(10)).extracting(CalendarAudit.Entry::summary)
        .containsExactly("call 9", "call 8", "call 7");
  }

  @Test
  void calendarsAreConfiguredFromCalendarsJsonInTheHome() throws IOException {
    Files.writeString(home.resolve("calendars.json"), """
        {"calendars":[{"id":"work","path":"%s","writable":true,"zone":"Europe/Berlin"},{"id":"ro","path":"%s"}]}
        """.formatted(work, holidays), StandardCharsets.UTF_8);
    List<CalendarSource> sources = CalendarSource.load(home, Map.of());
    assertThat(sources).extracting(s -> s.id() + " " + s.writable() + " " + s.zone())
        .containsExactly("work true Europe/Berlin", "ro false UTC");
    assertThat(CalendarSource.load(files, Map.of())).isEmpty();
    assertThatThrownBy(() -> CalendarSource.parse("{\"calendars\":[{\"id\":\"x\",\"path\":\"rel.ics\"}]}", "test", Map.of()))
        .hasMessageContaining("not absolute");
  }
}
