package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventStream;
import dev.roundhouse.hub.ext.ExtensionResources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which resource changes the calendar agent reports (the hub's {@code resource.updated} events, which the MCP
 * endpoint turns into {@code notifications/resources/updated}): a real hub with the extension over two ICS files,
 * read on the hub's event stream. A decision's answer is stored after its handler ran, so every report of an
 * approval is on the stream before its {@code decision.answered}.
 */
class CalendarResourceChangesTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String WORK = "roundhouse://calendars/work";
  private static final String AUDIT = "roundhouse://calendar/audit";

  @TempDir Path home;
  @TempDir Path files;

  private Path work;
  private CalendarHub calendar;
  private Hub hub;
  private Actor agent;

  @BeforeEach
  void open() throws IOException {
    work = files.resolve("work.ics");
    Path holidays = files.resolve("holidays.ics");
    Files.writeString(work, CalendarExtensionTest.ics(CalendarExtensionTest.STANDUP));
    Files.writeString(holidays, CalendarExtensionTest.ics(CalendarConversationTest.HOLIDAYS));
    calendar = CalendarHub.open(home, "Plan my month", new CalendarExtension(List.of(
        new CalendarSource("work", work, true, ZoneId.of("Europe/Berlin")),
        new CalendarSource("holidays", holidays, false, ZoneId.of("Europe/Berlin")))));
    hub = calendar.hub;
    agent = calendar.agent;
  }

  @AfterEach
  void close() {
    calendar.close();
  }


  /** A stream of what happens from now on, caught up (live), so transient and stored events come in the order published. */
  private EventStream fromNow() throws InterruptedException {
    EventStream stream = hub.events().open(hub.events().lastSeqOrZero(), 1024);
    assertThat(stream.next(Duration.ZERO)).as("nothing to replay").isEmpty();
    return stream;
  }

  /** Approves {@code decision} and returns the URIs reported meanwhile, in order (every report comes before the answer's event). */
  private List<String> approve(long decision) throws InterruptedException {
    try (EventStream stream = fromNow()) {
      calendar.invoke("decision_answer", Actor.USER, "decision", decision, "answer", "approve");
      List<String> uris = new ArrayList<>();
      while (true) {
        Event event = stream.next(DEADLINE).orElseThrow(() -> new AssertionError("no decision.answered within " + DEADLINE));
        if (event.type().equals(ExtensionResources.UPDATED)) {
          assertThat(event.actor()).isEqualTo(Actor.USER);
          event.data().path("uris").forEach(uri -> uris.add(uri.asText()));
        }
        if (event.type().equals("decision.answered")) {
          return uris;
        }
      }
    }
  }

  @Test
  void anApprovedCreateNotifiesItsCalendarTheListingNewCategoriesAndTheAuditButNoOtherCalendar() throws Exception {
    long decision = calendar.invoke("calendar_stage_create", agent, "calendar", "work", "title", "Home - Family - Dinner",
        "start", "2026-03-12T19:00[Europe/Berlin]", "end", "2026-03-12T21:00[Europe/Berlin]").get("decision").asLong();
    assertThat(approve(decision)).containsExactly(
        WORK, "roundhouse://calendars", "roundhouse://calendar/categories", // one more event, a new category
        AUDIT); // the approval's audit entry
  }

  @Test
  void aMoveThatKeepsTheListingNotifiesTheCalendarAndTheAuditOnly() throws Exception {
    String before = Files.readString(work);
    long decision = calendar.invoke("calendar_stage_update", agent, "calendar", "work", "uid", "review", "start", "2026-03-10T16:00[Europe/Berlin]")
        .get("decision").asLong();
    assertThat(approve(decision)).as("same number of events, same categories").containsExactly(WORK, AUDIT);
    assertThat(Files.readString(work)).isNotEqualTo(before);
  }

  @Test
  void aRetriedCommitThatWritesNothingNotifiesTheAuditOnly() throws Exception {
    CalendarHub.Written retried = calendar.createWrittenBeforeItsAnswer(work);
    long decision = retried.decision();
    String written = retried.ics();
    assertThat(approve(decision)).containsExactly(AUDIT);
    assertThat(Files.readString(work)).isEqualTo(written);
  }

  @Test
  void everyAuditEntryNotifiesTheAuditAsItsActor() throws Exception {
    try (EventStream stream = fromNow()) {
      calendar.invoke("calendar_list", agent);
      Event event = stream.next(DEADLINE).orElseThrow();
      assertThat(event.type()).isEqualTo(ExtensionResources.UPDATED);
      assertThat(event.actor()).isEqualTo(agent);
      assertThat(event.data().path("uris").toString()).isEqualTo("[\"" + AUDIT + "\"]");
      calendar.invoke("calendar_audit", Actor.USER);
      assertThat(stream.next(Duration.ZERO)).as("reading the audit is not audited, so it notifies nothing").isEmpty();
    }
  }
}
