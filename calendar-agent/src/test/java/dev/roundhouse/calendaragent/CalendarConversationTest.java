package dev.roundhouse.calendaragent;

import static dev.roundhouse.drivers.openai.FakeModelServer.finishChunk;
import static dev.roundhouse.drivers.openai.FakeModelServer.stream;
import static dev.roundhouse.drivers.openai.FakeModelServer.streamText;
import static dev.roundhouse.drivers.openai.FakeModelServer.streamToolCall;
import static dev.roundhouse.drivers.openai.FakeModelServer.toolCallChunk;
import static dev.roundhouse.drivers.openai.FakeModelServer.usageChunk;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.openai.FakeModelServer;
import dev.roundhouse.drivers.openai.OpenAiDriver;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestHub;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The calendar conversation end to end: a real hub (store, runner, decisions, HTTP API) with the calendar
 * extension over ICS files in a temporary folder, running the OpenAI-compatible driver against the drivers
 * module's fake model server, whose scripted model queries and stages; the test answers the proposals.
 */
class CalendarConversationTest {
  /** Wednesday 2026-03-04, 10:15 in Berlin. */
  static final Instant NOW = Instant.parse("2026-03-04T09:15:00Z");
  static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  static final String WORK = """
      BEGIN:VEVENT
      UID:review
      DTSTAMP:20260101T000000Z
      DTSTART;TZID=Europe/Berlin:20260305T140000
      DTEND;TZID=Europe/Berlin:20260305T150000
      SUMMARY:Work - Meetings - Sprint review
      END:VEVENT
      """;

  static final String HOLIDAYS = """
      BEGIN:VEVENT
      UID:easter
      DTSTAMP:20260101T000000Z
      DTSTART;VALUE=DATE:20260405
      DTEND;VALUE=DATE:20260406
      SUMMARY:Public - Holiday - Easter
      END:VEVENT
      """;

  @TempDir Path files;
  @TempDir Path driverHome;
  final FakeModelServer model = FakeModelServer.start();
  TestHub hub;
  HttpTestClient http;
  EventRecorder events;
  Path work;

  private void open(ConversationSettings settings) throws IOException {
    work = files.resolve("work.ics");
    Path holidays = files.resolve("holidays.ics");
    Files.writeString(work, CalendarExtensionTest.ics(WORK));
    Files.writeString(holidays, CalendarExtensionTest.ics(HOLIDAYS));
    CalendarExtension calendar = new CalendarExtension(List.of(
        new CalendarSource("work", work, true, BERLIN),
        new CalendarSource("holidays", holidays, false, BERLIN)), settings);
    // No key: the fake server is on 127.0.0.1, a local endpoint that needs none.
    OpenAiDriver driver = new OpenAiDriver(
        Map.of("ROUNDHOUSE_OPENAI_BASE_URL", model.baseUrl(), "ROUNDHOUSE_OPENAI_MODEL", "local-model"), driverHome);
    hub = TestHub.withExtensions(config -> config.withClock(Clock.fixed(NOW, ZoneOffset.UTC)), List.of(driver), List.of(calendar));
    http = hub.http();
    events = new EventRecorder(hub.hub());
    http.op("project_create", map("name", "life", "path", hub.folder("life"), "default_agent", "openai"));
  }

  @AfterEach
  void close() {
    if (events != null) {
      events.close();
    }
    if (hub != null) {
      hub.close();
    }
    model.close();
  }

  private long task(String title, List<String> tags) {
    return http.op("task_create", map("project", "life", "title", title, "tags", tags)).get("id").asLong();
  }

  /** Starts a turn on {@code task} and waits for it to end; returns its end status. */
  private String converse(long task, String message) {
    http.op("turn_start", map("task", task, "message", message));
    Event ended = events.await("turn.ended", task);
    return ended.data().get("status").asText();
  }

  private String systemPrompt(int request) {
    return model.request(request).json().at("/messages/0/content").asText();
  }

  private List<String> offeredTools(int request) {
    return model.request(request).json().path("tools").findValuesAsText("name");
  }

  private List<JsonNode> proposals(long task) {
    JsonNode list = http.op("decision_list", map("task", task, "include_closed", true));
    return StreamSupport.stream(list.get("decisions").spliterator(), false)
        .filter(d -> d.get("kind").asText().equals(CalendarExtension.KIND)).toList();
  }

  private JsonNode proposalTitled(long task, String title) {
    return proposals(task).stream().filter(d -> d.get("title").asText().contains(title)).findFirst().orElseThrow();
  }

  @Test
  void aConversationQueriesStagesTwoEventsAndTheCalendarHoldsExactlyTheApprovedOne() throws IOException {
    open(new ConversationSettings(BERLIN, false, Set.of()));
    long task = task("Plan my week", List.of(CalendarConversation.TAG));
    model.enqueue(
        streamToolCall("call_1", "calendar_events",
            "{\"from\": \"2026-03-02T00:00[Europe/Berlin]\", \"to\": \"2026-03-09T00:00[Europe/Berlin]\"}"),
        stream(
            toolCallChunk(0, "call_2", "calendar_stage_create", "{\"calendar\": \"work\", \"title\": \"health - sport - Gym\","
                + " \"start\": \"2026-03-05T07:00[Europe/Berlin]\", \"end\": \"2026-03-05T08:00[Europe/Berlin]\", \"location\": \"Studio 5\"}"),
            toolCallChunk(1, "call_3", "calendar_stage_create", "{\"calendar\": \"work\", \"title\": \"Health - Doctor - Dentist\","
                + " \"start\": \"2026-03-06T10:00[Europe/Berlin]\", \"end\": \"2026-03-06T10:30[Europe/Berlin]\"}"),
            finishChunk("tool_calls"),
            usageChunk(30, 12)),
        streamText("Thursday is free before the sprint review. I staged the gym on Thursday at 07:00 and the dentist on"
            + " Friday at 10:00; both wait for your approval."));

    assertThat(converse(task, "Put a gym session and the dentist into my week")).isEqualTo("completed");

    // Every request carried the calendar prompt and the facts of the moment, in the user's zone and clock.
    String system = systemPrompt(0);
    assertThat(system)
        .contains("Roundhouse calendar agent, prompt version 1")
        .contains("Task #" + task + ": Plan my week")
        .contains("- Now: Wednesday 2026-03-04 10:15 in Europe/Berlin (UTC+01:00), 2026-03-04T09:15:00Z")
        .contains("- The user's time zone: Europe/Berlin; write times for tools like 2026-03-04T10:15[Europe/Berlin]")
        .contains("- The user's clock: 24-hour")
        .contains("- Active categories: Public - Holiday, Work - Meetings")
        .contains("- Writable calendars: work (Europe/Berlin)")
        .contains("- Read-only calendars: holidays (Europe/Berlin)");
    assertThat(offeredTools(0))
        .containsAll(CalendarConversation.AGENT_TOOLS)
        .contains("get_task")
        .doesNotContain("calendar_audit", "calendar_prompt", "decision_answer", "read_file");
    assertThat(model.requests()).hasSize(3);
    // The query's answer reached the model before it staged.
    JsonNode queried = model.request(1).json().path("messages");
    assertThat(queried.get(queried.size() - 1).get("role").asText()).isEqualTo("tool");
    assertThat(queried.get(queried.size() - 1).get("content").asText()).contains("Work - Meetings - Sprint review").contains("\"count\":1");

    // Two pending proposals tied to the task; nothing written yet.
    List<JsonNode> staged = proposals(task);
    assertThat(staged).hasSize(2).allSatisfy(d -> {
      assertThat(d.get("status").asText()).isEqualTo("pending");
      assertThat(d.get("task_id").asLong()).isEqualTo(task);
    });
    assertThat(Files.readString(work)).doesNotContain("Gym").doesNotContain("Dentist");

    long gym = proposalTitled(task, "Health - Sport - Gym").get("id").asLong();
    long dentist = proposalTitled(task, "Health - Doctor - Dentist").get("id").asLong();
    http.op("decision_answer", map("decision", gym, "answer", "approve"));
    http.op("decision_answer", map("decision", dentist, "answer", "reject", "message", "I already booked it"));

    assertThat(proposalTitled(task, "Gym").get("answer").asText()).isEqualTo("approve");
    assertThat(proposalTitled(task, "Dentist").get("answer").asText()).isEqualTo("reject");
    String ics = Files.readString(work);
    assertThat(uids(ics)).containsExactly("review", CalendarExtension.uidFor(gym));
    assertThat(ics).contains("SUMMARY:Health - Sport - Gym").doesNotContain("Dentist");
    JsonNode week = http.op("calendar_events", map("calendar", "work", "from", "2026-03-02T00:00[Europe/Berlin]", "to", "2026-03-09T00:00[Europe/Berlin]"));
    assertThat(week.get("events").findValuesAsText("title")).containsExactly("Health - Sport - Gym", "Work - Meetings - Sprint review");
    assertThat(week.at("/events/0/start_local").asText()).isEqualTo("2026-03-05T07:00");
  }

  @Test
  void aConversationIsPromptedAsTheCalendarAgentAloneAndOfferedNoWorkspaceTools() throws IOException {
    open(new ConversationSettings(BERLIN, false, Set.of()));
    long task = task("Plan my week", List.of(CalendarConversation.TAG));
    model.enqueue(streamText("Your week is quiet."));

    assertThat(converse(task, "What does my week look like?")).isEqualTo("completed");

    String system = systemPrompt(0);
    assertThat(system).startsWith("# Roundhouse calendar agent, prompt version 1")
        .doesNotContainIgnoringCase("coding agent")
        .contains("You act only through your tools (") // the hub's tool rules stay
        .contains("Tool arguments are one JSON object.")
        .contains("Task #" + task + ": Plan my week")
        .contains("- Writable calendars: work (Europe/Berlin)");
    assertThat(offeredTools(0))
        .containsAll(CalendarConversation.AGENT_TOOLS)
        .contains("get_task", "ask_user")
        .doesNotContain("read_file", "list_files", "search", "write_file", "edit_file", "run_command");
  }

  @Test
  void aTaskWithoutTheTagIsAnOrdinaryTaskWithoutCalendarContextOrTools() throws IOException {
    open(new ConversationSettings(BERLIN, false, Set.of()));
    long task = task("Water the plants", List.of());
    model.enqueue(streamText("Done."));

    assertThat(converse(task, "hi")).isEqualTo("completed");

    assertThat(systemPrompt(0)).startsWith("You are a coding agent").doesNotContain("calendar agent").doesNotContain("Calendar context");
    assertThat(offeredTools(0)).contains("get_task", "read_file", "run_command").doesNotContainAnyElementsOf(CalendarConversation.AGENT_TOOLS);
  }

  @Test
  void everyTaskOfAConfiguredProjectIsAConversationOnATwelveHourClockInTheHubsZoneByDefault() throws IOException {
    open(new ConversationSettings(null, true, Set.of("life")));
    long task = task("What is on tomorrow?", List.of());
    model.enqueue(streamText("The sprint review at 2:00 PM."));

    assertThat(converse(task, "what is on tomorrow?")).isEqualTo("completed");

    // The hub's clock is in UTC and no zone was configured: the conversation is in UTC.
    assertThat(systemPrompt(0))
        .contains("- Now: Wednesday 2026-03-04 9:15 AM in UTC (UTC+00:00), 2026-03-04T09:15:00Z")
        .contains("- The user's clock: 12-hour");
    assertThat(offeredTools(0)).contains("calendar_events", "calendar_stage_create");
  }

  @Test
  void aPromptInTheHomeOverridesTheBundledOneAndTheOperationSaysWhichAndItsVersion() throws IOException {
    open(new ConversationSettings(BERLIN, false, Set.of()));
    JsonNode bundled = http.op("calendar_prompt", map());
    assertThat(bundled.get("source").asText()).isEqualTo("bundled");
    assertThat(bundled.get("version").asText()).isEqualTo("1");
    assertThat(bundled.get("text").asText()).startsWith("# Roundhouse calendar agent, prompt version 1");

    Files.writeString(hub.home().resolve(CalendarPrompt.FILE), "My calendar helper, version 7\n\nAlways answer in French.\n");
    long task = task("Plan", List.of(CalendarConversation.TAG));
    model.enqueue(streamText("D'accord."));
    assertThat(converse(task, "hi")).isEqualTo("completed");

    assertThat(systemPrompt(0)).contains("Always answer in French.").doesNotContain("prompt version 1")
        .contains("- Writable calendars: work (Europe/Berlin)");
    JsonNode override = http.op("calendar_prompt", map());
    assertThat(override.get("source").asText()).isEqualTo("override");
    assertThat(override.get("version").asText()).isEqualTo("7");
    assertThat(override.get("bundled_version").asText()).isEqualTo("1");
    assertThat(override.get("note").asText()).contains("version 7").contains("bundled prompt is version 1");
  }

  private static List<String> uids(String ics) {
    List<String> uids = new ArrayList<>();
    Matcher matcher = Pattern.compile("(?m)^UID:(.+?)\\r?$").matcher(ics);
    while (matcher.find()) {
      uids.add(matcher.group(1));
    }
    return uids;
  }
}
