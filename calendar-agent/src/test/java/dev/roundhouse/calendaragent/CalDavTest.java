package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.calendaragent.caldav.CalDavCollection;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** CalDAV calendars against a real Radicale on 127.0.0.1: stage, approve, verify on the server with raw requests. */
class CalDavTest {
  @RegisterExtension final RadicaleServer radicale = new RadicaleServer();
  @TempDir Path home;

  private URI team;
  private CalendarHub calendar;
  private Hub hub;
  private CalendarExtension extension;
  private Actor agent;

  static final String WEEKLY = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//test//test//EN\r
      BEGIN:VEVENT\r
      UID:weekly\r
      DTSTAMP:20260101T000000Z\r
      DTSTART;TZID=Europe/Berlin:20260302T090000\r
      DTEND;TZID=Europe/Berlin:20260302T093000\r
      RRULE:FREQ=WEEKLY;COUNT=6\r
      SUMMARY:Work - Team - Weekly\r
      END:VEVENT\r
      END:VCALENDAR\r
      """;

  @BeforeEach
  void open() throws IOException {
    team = radicale.calendar("team");
    extension = new CalendarExtension(List.of(CalendarSource.calDav("team", team, RadicaleServer.USER,
        Password.fromEnv("TEAM_PASSWORD", Map.of("TEAM_PASSWORD", RadicaleServer.PASSWORD)), true, ZoneId.of("Europe/Berlin"))));
    calendar = CalendarHub.open(home, "Plan", extension);
    hub = calendar.hub;
    agent = calendar.agent;
  }

  @AfterEach
  void close() {
    calendar.close();
  }


  private void approve(long decision) {
    calendar.invoke("decision_answer", Actor.USER, "decision", decision, "answer", "approve");
  }

  private CalDavCollection collection() {
    return ((CalDavCalendar) extension.store().backend("team")).collection();
  }

  private List<String> titles(String from, String to) {
    JsonNode events = calendar.invoke("calendar_events", agent, "calendar", "team", "from", from, "to", to);
    return StreamSupport.stream(events.get("events").spliterator(), false)
        .map(e -> e.get("start_local").asText() + " " + e.get("title").asText()).toList();
  }

  private void seed(String name, String ics) {
    assertThat(radicale.request("PUT", team.resolve(name), ics, Map.of("Content-Type", "text/calendar")).status()).isEqualTo(201);
  }

  @Test
  void anApprovedCreateIsOnTheServerAndNothingIsWrittenBefore() {
    JsonNode staged = calendar.invoke("calendar_stage_create", agent, "calendar", "team", "title", "Work - Meetings - Planning",
        "start", "2026-03-12T10:00[Europe/Berlin]", "end", "2026-03-12T11:30[Europe/Berlin]", "location", "Room 1");
    long decision = staged.get("decision").asLong();
    assertThat(radicale.objects(team)).isEmpty();

    approve(decision);
    List<String> objects = radicale.objects(team);
    assertThat(objects).hasSize(1);
    assertThat(objects.getFirst()).contains("UID:" + CalendarExtension.uidFor(decision), "SUMMARY:Work - Meetings - Planning",
        "DTSTART;TZID=Europe/Berlin:20260312T100000", "BEGIN:VTIMEZONE", "LOCATION:Room 1");
    assertThat(collection().requestCounts()).containsEntry("PUT", 1L);
    assertThat(titles("2026-03-12T00:00[Europe/Berlin]", "2026-03-13T00:00[Europe/Berlin]"))
        .containsExactly("2026-03-12T10:00 Work - Meetings - Planning");
  }

  @Test
  void aChangeBehindOurBackMakesTheApprovalAConflictAndTheServerCopyStays() {
    seed("weekly.ics", WEEKLY);
    long decision = calendar.invoke("calendar_stage_update", agent, "calendar", "team", "uid", "weekly", "scope", "all",
        "title", "Work - Team - Weekly sync").get("decision").asLong();
    assertThat(hub.decisions().get(decision).orElseThrow().request().at("/before/etag").asText()).startsWith("\"");
    // someone edits the event in another client
    String theirs = WEEKLY.replace("SUMMARY:Work - Team - Weekly", "SUMMARY:Work - Team - Weekly (their edit)");
    assertThat(radicale.request("PUT", team.resolve("weekly.ics"), theirs, Map.of("Content-Type", "text/calendar")).status() / 100).isEqualTo(2);

    assertThatThrownBy(() -> approve(decision)).isInstanceOf(RoundhouseException.Conflict.class)
        .hasMessageContaining("event 'weekly' in calendar 'team' changed since proposal " + decision);
    assertThat(collection().requestCounts()).containsEntry("PUT", 1L); // the If-Match PUT, refused with 412
    assertThat(radicale.objects(team)).singleElement().asString().contains("SUMMARY:Work - Team - Weekly (their edit)", "RRULE:FREQ=WEEKLY;COUNT=6");
    assertThat(hub.decisions().get(decision).orElseThrow().pending()).isTrue();
  }

  @Test
  void anApprovedUpdateAndDeleteUseTheEtagAndKeepTheRule() {
    seed("weekly.ics", WEEKLY);
    long rename = calendar.invoke("calendar_stage_update", agent, "calendar", "team", "uid", "weekly", "scope", "all",
        "title", "Work - Team - Weekly sync").get("decision").asLong();
    approve(rename);
    assertThat(radicale.objects(team)).singleElement().asString().contains("SUMMARY:Work - Team - Weekly sync", "RRULE:FREQ=WEEKLY;COUNT=6");
    long skip = calendar.invoke("calendar_stage_delete", agent, "calendar", "team", "uid", "weekly", "scope", "this",
        "recurrence_id", "2026-03-09T09:00[Europe/Berlin]").get("decision").asLong();
    approve(skip);
    assertThat(radicale.objects(team)).singleElement().asString().contains("EXDATE;TZID=Europe/Berlin:20260309T090000");
    assertThat(titles("2026-03-01T00:00[Europe/Berlin]", "2026-03-17T00:00[Europe/Berlin]"))
        .containsExactly("2026-03-02T09:00 Work - Team - Weekly sync", "2026-03-16T09:00 Work - Team - Weekly sync");
    long delete = calendar.invoke("calendar_stage_delete", agent, "calendar", "team", "uid", "weekly").get("decision").asLong();
    approve(delete);
    assertThat(radicale.objects(team)).isEmpty();
    assertThat(collection().requestCounts()).containsEntry("DELETE", 1L);
  }

  @Test
  void thisAndFollowingOnTheServerTruncatesOneObjectAndCreatesAnother() {
    seed("weekly.ics", WEEKLY);
    approve(calendar.invoke("calendar_stage_update", agent, "calendar", "team", "uid", "weekly", "scope", "following",
        "recurrence_id", "2026-03-23T09:00[Europe/Berlin]", "start", "2026-03-23T10:00[Europe/Berlin]").get("decision").asLong());
    List<String> objects = radicale.objects(team);
    assertThat(objects).hasSize(2);
    assertThat(objects).anyMatch(o -> o.contains("UID:weekly") && o.contains("UNTIL=20260323T075959Z"));
    assertThat(objects).anyMatch(o -> o.contains("UID:roundhouse-split-") && o.contains("COUNT=3")
        && o.contains("DTSTART;TZID=Europe/Berlin:20260323T100000") && o.contains("BEGIN:VTIMEZONE"));
    // Berlin moves to summer time on Mar 29: 10:00 CEST is 08:00Z
    assertThat(titles("2026-03-01T00:00[Europe/Berlin]", "2026-04-10T00:00[Europe/Berlin]")).containsExactly(
        "2026-03-02T09:00 Work - Team - Weekly", "2026-03-09T09:00 Work - Team - Weekly", "2026-03-16T09:00 Work - Team - Weekly",
        "2026-03-23T10:00 Work - Team - Weekly", "2026-03-30T10:00 Work - Team - Weekly", "2026-04-06T10:00 Work - Team - Weekly");
  }

  @Test
  void aRetriedApprovalCreatesExactlyOneEvent() {
    long decision = calendar.invoke("calendar_stage_create", agent, "calendar", "team", "title", "Work - Meetings - Retro",
        "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z").get("decision").asLong();
    Decision staged = hub.decisions().get(decision).orElseThrow();
    // an earlier approval wrote the event and the hub stopped before recording the answer
    String uid = CalendarExtension.uidFor(decision);
    seed(collection().hrefFor(uid).substring(team.getPath().length()), IcsText.withEvent("", ProposalCommits.createdEvent(staged), null));

    approve(decision); // If-None-Match: * gets 412; the object holds the same event, so it counts as done
    assertThat(collection().requestCounts()).containsEntry("PUT", 1L).containsEntry("GET", 1L);
    assertThat(radicale.objects(team)).hasSize(1).allMatch(o -> o.contains("UID:" + uid));
    assertThat(hub.decisions().get(decision).orElseThrow().answer()).isEqualTo("approve");

    // and the same commit once more (a second retry) still writes nothing
    extension.store().apply(Actor.USER, "team", List.of(new EventChange("team", uid, "", null, ProposalCommits.createdEvent(staged), decision)));
    assertThat(radicale.objects(team)).hasSize(1);
  }

  @Test
  void aCreateOverADifferentEventWithTheSameUidIsAConflict() {
    long decision = calendar.invoke("calendar_stage_create", agent, "calendar", "team", "title", "Work - Meetings - Retro",
        "start", "2026-03-13T10:00Z", "end", "2026-03-13T11:00Z").get("decision").asLong();
    String uid = CalendarExtension.uidFor(decision);
    String old = WEEKLY.replace("UID:weekly", "UID:" + uid);
    seed(collection().hrefFor(uid).substring(team.getPath().length()), old);
    assertThatThrownBy(() -> approve(decision)).isInstanceOf(RoundhouseException.Conflict.class)
        .hasMessageContaining("already holds a different event '" + uid + "'");
    assertThat(radicale.objects(team)).singleElement().asString().contains("SUMMARY:Work - Team - Weekly");
  }

  @Test
  void repeatedQueriesFetchOnlyWhatChanged() {
    seed("weekly.ics", WEEKLY);
    seed("other.ics", WEEKLY.replace("UID:weekly", "UID:other").replace("Weekly", "Other"));
    String from = "2026-03-01T00:00[Europe/Berlin]";
    String to = "2026-04-01T00:00[Europe/Berlin]";
    assertThat(titles(from, to)).hasSize(10);
    CalDavCollection dav = collection();
    assertThat(dav.objectsDownloaded()).isEqualTo(2);
    Map<String, Long> first = dav.requestCounts();
    assertThat(first).containsEntry("PROPFIND ctag", 1L).containsEntry("REPORT sync-collection", 1L).containsEntry("REPORT calendar-multiget", 1L);

    assertThat(titles(from, to)).hasSize(10);
    assertThat(dav.objectsDownloaded()).isEqualTo(2);
    assertThat(dav.requestCounts()).containsEntry("PROPFIND ctag", 2L).containsEntry("REPORT sync-collection", 1L)
        .containsEntry("REPORT calendar-multiget", 1L);

    seed("third.ics", WEEKLY.replace("UID:weekly", "UID:third").replace("Weekly", "Third").replace("COUNT=6", "COUNT=1"));
    assertThat(titles(from, to)).hasSize(11).contains("2026-03-02T09:00 Work - Team - Third");
    assertThat(dav.objectsDownloaded()).isEqualTo(3); // only the new object, found from the sync-token
    assertThat(dav.requestCounts()).containsEntry("REPORT sync-collection", 2L).containsEntry("REPORT calendar-multiget", 2L);

    assertThat(radicale.request("DELETE", team.resolve("other.ics"), null, Map.of()).status() / 100).isEqualTo(2);
    assertThat(titles(from, to)).hasSize(6).noneMatch(t -> t.contains("Other"));
    assertThat(dav.objectsDownloaded()).isEqualTo(3);
  }

  @Test
  void passwordsStayOutOfConfigurationTextAndAWrongOneIsACleanRefusal() throws IOException {
    Path secret = home.resolve("team.password");
    Files.writeString(secret, RadicaleServer.PASSWORD + "\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
    String json = """
        {"calendars":[{"id":"team","url":"%s","user":"alice","password_file":"%s","writable":true}]}
        """.formatted(team, secret);
    CalendarSource source = CalendarSource.parse(json, "test", Map.of()).getFirst();
    assertThat(source.toString()).doesNotContain(RadicaleServer.PASSWORD).contains("file:" + secret);
    assertThatThrownBy(() -> source.password().reveal("team")).hasMessageContaining("chmod 600");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    assertThat(source.password().reveal("team")).isEqualTo(RadicaleServer.PASSWORD);

    assertThatThrownBy(() -> CalendarSource.parse("""
        {"calendars":[{"id":"team","url":"%s","user":"alice","password":"hunter2"}]}""".formatted(team), "test", Map.of()))
        .hasMessageContaining("never written").hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> CalendarSource.parse("""
        {"calendars":[{"id":"team","url":"http://alice:hunter2@127.0.0.1/x/","user":"alice","password_env":"X"}]}""", "test", Map.of()))
        .hasMessageContaining("not in the url");

    CalendarExtension wrong = new CalendarExtension(List.of(CalendarSource.calDav("team", team, RadicaleServer.USER,
        Password.fromEnv("P", Map.of("P", "wrong")), false, ZoneId.of("UTC"))));
    try {
      assertThatThrownBy(() -> wrong.store().read("team")).isInstanceOf(RoundhouseException.Forbidden.class)
          .hasMessageContaining("refused user 'alice' (401)").hasMessageNotContaining("wrong");
    } finally {
      wrong.close();
    }
  }
}
