package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.mcpserver.McpServers;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The calendars, categories, audit and prompt as MCP resources: a real hub with the calendar extension over
 * ICS files and the MCP endpoint, read and subscribed to with the MCP Java SDK client.
 */
@SuppressWarnings("deprecation") // the SDK deprecates the one-argument request constructors without a replacement this test needs
class CalendarResourcesTest {
  static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  /** How often the extension looks at the prompt's override here. */
  private static final Duration PROMPT_LOOKS = Duration.ofMillis(20);
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @TempDir Path files;
  TestHub hub;
  McpSyncClient client;

  @BeforeEach
  void open() throws IOException {
    Path work = files.resolve("work.ics");
    Path holidays = files.resolve("holidays.ics");
    Files.writeString(work, CalendarExtensionTest.ics(CalendarConversationTest.WORK));
    Files.writeString(holidays, CalendarExtensionTest.ics(CalendarConversationTest.HOLIDAYS));
    CalendarExtension calendar = new CalendarExtension(List.of(
        new CalendarSource("work", work, true, BERLIN),
        new CalendarSource("holidays", holidays, false, BERLIN)), ConversationSettings.DEFAULTS, null, Map.of(), PROMPT_LOOKS);
    hub = TestHub.withExtensionsAndMounts(config -> config, List.of(), List.of(calendar), h -> List.of(McpServers.streamableHttp(h)));
    client = connect(Files.readString(McpServers.tokenFile(hub.home())).strip());
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    if (hub != null) {
      hub.close();
    }
  }

  private McpSyncClient connect(String token) {
    return connect(token, "planner", uri -> {});
  }

  /** A client named {@code name} that passes the URI of each {@code resources/updated} to {@code updated}. */
  private McpSyncClient connect(String token, String name, Consumer<String> updated) {
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(hub.server().url())
        .endpoint(McpServers.PATH)
        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
        .connectTimeout(Duration.ofSeconds(5))
        .build();
    McpSyncClient mcp = McpClient.sync(transport)
        .clientInfo(McpSchema.Implementation.builder(name, "1.0").build())
        .requestTimeout(Duration.ofSeconds(20))
        // the SDK reads an updated resource before it calls this (so that read is audited too)
        .resourcesUpdateConsumer(contents -> contents.forEach(content -> updated.accept(content.uri())))
        // the SDK's default validator needs a newer json-schema-validator than the hub ships (as in mcp-server's tests)
        .jsonSchemaValidator((schema, content) -> JsonSchemaValidator.ValidationResponse.asValid(null))
        .build();
    mcp.initialize();
    return mcp;
  }

  private McpSchema.TextResourceContents read(String uri) {
    return (McpSchema.TextResourceContents) client.readResource(new McpSchema.ReadResourceRequest(uri)).contents().getFirst();
  }

  private JsonNode json(String uri) {
    McpSchema.TextResourceContents contents = read(uri);
    assertThat(contents.mimeType()).isEqualTo("application/json");
    return Json.read(contents.text(), JsonNode.class);
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new java.util.ArrayList<>();
    array.forEach(value -> out.add(value.asText()));
    return out;
  }

  private static int code(Throwable error) {
    return ((McpError) error).getJsonRpcError().code();
  }

  @Test
  void theCalendarResourcesAreListedBesideTheHubsOwn() {
    assertThat(client.listResources().resources()).extracting(McpSchema.Resource::uri).contains(
        "roundhouse://projects", "roundhouse://calendars", "roundhouse://calendar/categories", "roundhouse://calendar/audit",
        "roundhouse://calendar/prompt", "roundhouse://calendar/prompt/bundled");
    assertThat(client.listResourceTemplates().resourceTemplates()).extracting(McpSchema.ResourceTemplate::uriTemplate)
        .contains("roundhouse://calendars/{calendar}");
  }

  @Test
  void calendarsAndCategoriesShowWhatCalendarListAnswers() {
    JsonNode calendars = json("roundhouse://calendars");
    assertThat(calendars).isEqualTo(hub.hub().operations().invoke("calendar_list", Actor.USER, null));
    assertThat(calendars.path("calendars").findValuesAsText("id")).containsExactly("work", "holidays");
    JsonNode work = json("roundhouse://calendars/work");
    assertThat(work.path("id").asText()).isEqualTo("work");
    assertThat(work.path("writable").asBoolean()).isTrue();
    assertThat(work.path("zone").asText()).isEqualTo("Europe/Berlin");
    assertThat(work.path("events").asInt()).isEqualTo(1);
    assertThat(strings(work.path("categories"))).containsExactly("Work - Meetings");
    assertThat(strings(json("roundhouse://calendar/categories").path("categories")))
        .containsExactly("Public - Holiday", "Work - Meetings");
  }

  @Test
  void theCalendarVariableCompletesWithTheConfiguredCalendars() {
    assertThat(complete("")).containsExactly("work", "holidays");
    McpSchema.CompleteResult.CompleteCompletion typed = client.completeCompletion(new McpSchema.CompleteRequest(
        new McpSchema.ResourceReference("roundhouse://calendars/{calendar}"), new McpSchema.CompleteRequest.CompleteArgument("calendar", "HO")))
        .completion();
    assertThat(typed.values()).containsExactly("holidays");
    assertThat(typed.total()).isEqualTo(1);
    assertThat(typed.hasMore()).isFalse();
    assertThat(complete("nope")).isEmpty();
  }

  private java.util.List<String> complete(String typed) {
    return client.completeCompletion(new McpSchema.CompleteRequest(new McpSchema.ResourceReference("roundhouse://calendars/{calendar}"),
        new McpSchema.CompleteRequest.CompleteArgument("calendar", typed))).completion().values();
  }

  @Test
  void anUnknownCalendarIsResourceNotFoundNamingTheConfiguredOnes() {
    assertThatThrownBy(() -> read("roundhouse://calendars/home"))
        .isInstanceOf(McpError.class)
        .hasMessageContaining("no calendar 'home'; configured: work, holidays")
        .satisfies(e -> assertThat(code(e)).isEqualTo(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND));
  }

  @Test
  void theAuditRecordsResourceReadsAndIsReadableNewestFirst() {
    read("roundhouse://calendars/work");
    assertThatThrownBy(() -> read("roundhouse://calendars/home")).isInstanceOf(McpError.class);
    JsonNode entries = json("roundhouse://calendar/audit").path("entries");
    assertThat(entries.get(0).path("operation").asText()).isEqualTo("resource_read");
    assertThat(entries.get(0).path("actor").asText()).isEqualTo("client:planner");
    assertThat(entries.get(0).path("summary").asText()).startsWith("roundhouse://calendars/home refused: no calendar 'home'");
    assertThat(entries.get(1).path("summary").asText()).startsWith("roundhouse://calendars/work -> ");
    assertThat(entries).as("the audit read itself is not audited").hasSize(2);
    assertThat(hub.hub().operations().invoke("calendar_audit", Actor.USER, null).path("entries")).isEqualTo(entries);
  }

  @Test
  void thePromptIsTheBundledOneUntilAnOverrideReplacesIt() throws IOException {
    McpSchema.TextResourceContents bundled = read("roundhouse://calendar/prompt");
    assertThat(bundled.mimeType()).isEqualTo("text/markdown");
    assertThat(bundled.text()).isEqualTo(CalendarPrompt.bundled());
    assertThat(bundled.meta()).containsEntry("source", "bundled").containsEntry("version", "1").containsEntry("bundled_version", "1");

    Files.writeString(hub.home().resolve(CalendarPrompt.FILE), "# My calendar prompt, version 7\n\nBe brief.\n");
    McpSchema.TextResourceContents override = read("roundhouse://calendar/prompt");
    assertThat(override.text()).isEqualTo("# My calendar prompt, version 7\n\nBe brief.\n");
    assertThat(override.meta()).containsEntry("source", "override").containsEntry("version", "7")
        .containsEntry("path", hub.home().resolve(CalendarPrompt.FILE).toString());
    assertThat((String) override.meta().get("note")).contains("the bundled prompt is version 1");
    assertThat(read("roundhouse://calendar/prompt/bundled").text()).isEqualTo(CalendarPrompt.bundled());
  }

  @Test
  void anEmptyOverrideIsRefusedWithTheReason() throws IOException {
    Files.writeString(hub.home().resolve(CalendarPrompt.FILE), "  \n");
    assertThatThrownBy(() -> read("roundhouse://calendar/prompt"))
        .isInstanceOf(McpError.class)
        .hasMessageContaining("is empty; delete it to use the bundled one")
        .satisfies(e -> assertThat(code(e)).isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR));
  }

  /** Takes URIs from {@code updated} until each of {@code expected} came, within the deadline; returns all it took. */
  private static Set<String> awaitAll(BlockingQueue<String> updated, String... expected) throws InterruptedException {
    Set<String> seen = new LinkedHashSet<>();
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!seen.containsAll(List.of(expected))) {
      String uri = updated.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      assertThat(uri).as("resources/updated for %s within %s; had %s", List.of(expected), DEADLINE, seen).isNotNull();
      seen.add(uri);
    }
    return seen;
  }

  @Test
  void subscribersHearOfAnApprovedProposalAndOfAnEditedPromptOverride() throws Exception {
    BlockingQueue<String> updated = new LinkedBlockingQueue<>();
    try (McpSyncClient watcher = connect(Files.readString(McpServers.tokenFile(hub.home())).strip(), "watcher", updated::add)) {
      for (String uri : List.of("roundhouse://calendars/work", "roundhouse://calendars/holidays", "roundhouse://calendar/audit",
          "roundhouse://calendar/prompt")) {
        watcher.subscribeResource(new McpSchema.SubscribeRequest(uri));
      }
      long decision = hub.hub().operations().invoke("calendar_stage_create", Actor.USER, Json.tree(Map.of("calendar", "work",
          "title", "Work - Meetings - Planning", "start", "2026-03-12T10:00[Europe/Berlin]", "end", "2026-03-12T11:00[Europe/Berlin]")))
          .path("decision").asLong();
      Set<String> seen = awaitAll(updated, "roundhouse://calendar/audit"); // the stage's audit entry

      hub.hub().operations().invoke("decision_answer", Actor.USER, Json.tree(Map.of("decision", decision, "answer", "approve")));
      seen.addAll(awaitAll(updated, "roundhouse://calendars/work"));
      assertThat(json("roundhouse://calendars/work").path("events").asInt()).isEqualTo(2);

      Files.writeString(hub.home().resolve(CalendarPrompt.FILE), "# My calendar prompt, version 7\n\nBe brief.\n");
      seen.addAll(awaitAll(updated, "roundhouse://calendar/prompt"));
      assertThat(seen).as("the holidays calendar did not change").doesNotContain("roundhouse://calendars/holidays");
    }
  }
}
