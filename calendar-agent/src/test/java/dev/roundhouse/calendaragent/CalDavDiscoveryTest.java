package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code calendar_discover} against a real Radicale on 127.0.0.1 (RFC 6764 well-known redirect, principal,
 * calendar home, Depth 1 listing), with rights that make one calendar read-only; and what it must not do:
 * let an agent call it, follow a redirect to another server, or put the password anywhere.
 */
class CalDavDiscoveryTest {
  /** Alice reads holidays only, reads and writes her other collections; the root is listable. */
  static final String RIGHTS = """
      [holidays]
      user: alice
      collection: alice/holidays(/.*)?
      permissions: r

      [principal]
      user: .+
      collection: {user}
      permissions: RW

      [own]
      user: .+
      collection: {user}/[^/]+(/.*)?
      permissions: rw

      [root]
      user: .+
      collection:
      permissions: R
      """;

  static final String BERLIN_TIMEZONE = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTIMEZONE\r\n"
      + "TZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"
      + "END:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n";

  @RegisterExtension final RadicaleServer radicale = RadicaleServer.withRights(RIGHTS);
  @TempDir Path home;

  private URI work;
  private Hub hub;

  @BeforeEach
  void open() throws IOException {
    work = radicale.url("/alice/work/");
    RadicaleServer.Response created = radicale.request("MKCALENDAR", work, """
        <?xml version="1.0" encoding="utf-8"?>
        <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
          <D:displayname>Work</D:displayname>
          <C:calendar-timezone>%s</C:calendar-timezone>
        </D:prop></D:set></C:mkcalendar>""".formatted(BERLIN_TIMEZONE), Map.of("Content-Type", "application/xml"));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    RadicaleServer.Response tasks = radicale.request("MKCALENDAR", radicale.url("/alice/tasks/"), """
        <?xml version="1.0" encoding="utf-8"?>
        <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
          <D:displayname>Chores</D:displayname>
          <C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>
        </D:prop></D:set></C:mkcalendar>""", Map.of("Content-Type", "application/xml"));
    assertThat(tasks.status()).as(tasks.body()).isEqualTo(201);
    RadicaleServer.Response contacts = radicale.request("MKCOL", radicale.url("/alice/contacts/"), """
        <?xml version="1.0" encoding="utf-8"?>
        <D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>
          <D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype>
        </D:prop></D:set></D:mkcol>""", Map.of("Content-Type", "application/xml"));
    assertThat(contacts.status()).as(contacts.body()).isEqualTo(201);
    radicale.seedCalendar("alice/holidays", """
        {"tag": "VCALENDAR", "D:displayname": "Holidays", "C:supported-calendar-component-set": "VEVENT"}""");
    // "work" is configured already; discovery says so
    CalendarExtension extension = new CalendarExtension(List.of(CalendarSource.calDav("work", work, RadicaleServer.USER,
            Password.fromEnv("WORK_PASSWORD", Map.of("WORK_PASSWORD", RadicaleServer.PASSWORD)), true, ZoneId.of("Europe/Berlin"))),
        ConversationSettings.DEFAULTS, null, Map.of("DAV_PASSWORD", RadicaleServer.PASSWORD, "WRONG_PASSWORD", "not-it"));
    hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(extension));
  }

  @AfterEach
  void close() {
    if (hub != null) {
      hub.close();
    }
  }

  private JsonNode discover(Actor actor, Object... keyValues) {
    Map<String, Object> input = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      input.put((String) keyValues[i], keyValues[i + 1]);
    }
    return hub.operations().invoke("calendar_discover", actor, Json.tree(input));
  }

  private static JsonNode byName(JsonNode calendars, String name) {
    for (JsonNode calendar : calendars) {
      if (name.equals(calendar.path("name").asText())) {
        return calendar;
      }
    }
    throw new AssertionError("no calendar named " + name + " in " + calendars);
  }

  @Test
  void findsTheUsersCalendarsFromTheServersUrl() {
    JsonNode found = discover(Actor.USER, "url", radicale.url("/").toString(), "user", "alice", "password_env", "DAV_PASSWORD");
    assertThat(found.path("principal").asText()).isEqualTo(radicale.url("/alice/").toString());
    assertThat(found.path("homes").get(0).asText()).isEqualTo(radicale.url("/alice/").toString());
    assertThat(found.path("steps").toString())
        .contains("PROPFIND /.well-known/caldav redirected (301) to /", "current-user-principal: /alice/", "calendar-home-set: /alice/");
    JsonNode calendars = found.path("calendars");
    List<String> urls = new java.util.ArrayList<>();
    calendars.forEach(calendar -> urls.add(calendar.path("url").asText()));
    assertThat(urls).as("the address book is not a calendar")
        .containsExactlyInAnyOrder(work.toString(), radicale.url("/alice/tasks/").toString(), radicale.url("/alice/holidays/").toString());

    JsonNode workFound = byName(calendars, "Work");
    assertThat(workFound.path("events").asBoolean()).isTrue();
    assertThat(workFound.path("read_only").asBoolean()).isFalse();
    assertThat(workFound.path("zone").asText()).isEqualTo("Europe/Berlin");
    assertThat(workFound.path("configured_as").asText()).isEqualTo("work");
    assertThat(workFound.path("config").path("writable").asBoolean()).isTrue();

    JsonNode holidays = byName(calendars, "Holidays");
    assertThat(holidays.path("read_only").asBoolean()).isTrue();
    assertThat(holidays.path("components").toString()).isEqualTo("[\"VEVENT\"]");
    JsonNode suggested = holidays.path("config");
    assertThat(suggested.path("id").asText()).isEqualTo("holidays");
    assertThat(suggested.path("url").asText()).isEqualTo(radicale.url("/alice/holidays/").toString());
    assertThat(suggested.path("user").asText()).isEqualTo("alice");
    assertThat(suggested.path("password_env").asText()).isEqualTo("DAV_PASSWORD");
    assertThat(suggested.path("writable").asBoolean()).as("read-only on the server").isFalse();
    assertThat(suggested.has("zone")).isFalse();
    assertThat(holidays.has("configured_as")).isFalse();

    JsonNode chores = byName(calendars, "Chores");
    assertThat(chores.path("events").asBoolean()).as("a task list holds no events").isFalse();
    assertThat(chores.has("config")).isFalse();
  }

  @Test
  void aSuggestedEntryIsAcceptedAsConfiguration() {
    JsonNode found = discover(Actor.USER, "url", radicale.url("/alice/").toString(), "user", "alice", "password_env", "DAV_PASSWORD");
    JsonNode holidays = byName(found.path("calendars"), "Holidays");
    String config = Json.write(Map.of("calendars", List.of(holidays.path("config"))));
    List<CalendarSource> sources = CalendarSource.parse(config, "test", Map.of("DAV_PASSWORD", RadicaleServer.PASSWORD));
    assertThat(sources).singleElement().satisfies(source -> {
      assertThat(source.id()).isEqualTo("holidays");
      assertThat(source.url()).isEqualTo(radicale.url("/alice/holidays/"));
      assertThat(source.writable()).isFalse();
    });
  }

  @Test
  void aWrongPasswordIsRefusedWithoutShowingIt() {
    assertThatThrownBy(() -> discover(Actor.USER, "url", radicale.url("/").toString(), "user", "alice", "password_env", "WRONG_PASSWORD"))
        .isInstanceOf(RoundhouseException.Forbidden.class)
        .hasMessageContaining("refused user 'alice' (401)")
        .hasMessageNotContaining("not-it");
  }

  @Test
  void thePasswordReachesNeitherTheAuditNorTheDatabase() throws IOException {
    discover(Actor.USER, "url", radicale.url("/").toString(), "user", "alice", "password_env", "DAV_PASSWORD");
    assertThatThrownBy(() -> discover(Actor.USER, "url", "http://alice:" + RadicaleServer.PASSWORD + "@127.0.0.1:1/", "user", "alice",
        "password_env", "DAV_PASSWORD"))
        .hasMessageContaining("carries credentials").hasMessageNotContaining(RadicaleServer.PASSWORD);
    assertThatThrownBy(() -> discover(Actor.USER, "url", radicale.url("/").toString(), "user", "alice", "password", RadicaleServer.PASSWORD))
        .isInstanceOf(RoundhouseException.InvalidInput.class)
        .hasMessageContaining("password").hasMessageNotContaining(RadicaleServer.PASSWORD);
    String audit = Files.readString(home.resolve(CalendarAudit.FILE));
    assertThat(audit).contains("calendar_discover", "DAV_PASSWORD", "carries credentials").doesNotContain(RadicaleServer.PASSWORD);
    hub.close();
    try (Stream<Path> files = Files.walk(home)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        assertThat(new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1))
            .as(file.toString()).doesNotContain(RadicaleServer.PASSWORD);
      }
    }
    hub = Hub.open(HubConfig.forHome(home), List.of(), List.of()); // for close()
  }

  @Test
  void anAgentCannotDiscover() {
    assertThatThrownBy(() -> discover(Actor.agent(1), "url", radicale.url("/").toString(), "user", "alice", "password_env", "DAV_PASSWORD"))
        .isInstanceOf(RoundhouseException.Forbidden.class)
        .hasMessageContaining("calendar_discover is for a person configuring calendars");
    assertThat(CalendarConversation.AGENT_TOOLS).doesNotContain("calendar_discover");
  }

  @Test
  void aRedirectToAnotherServerIsNotFollowed() throws IOException {
    AtomicInteger otherRequests = new AtomicInteger();
    HttpServer other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    other.createContext("/", exchange -> {
      otherRequests.incrementAndGet();
      exchange.sendResponseHeaders(500, -1);
      exchange.close();
    });
    HttpServer redirecting = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    // localhost is another origin than 127.0.0.1, even on the same machine
    redirecting.createContext("/", exchange -> {
      exchange.getResponseHeaders().add("Location", "http://localhost:" + other.getAddress().getPort() + "/dav/");
      exchange.sendResponseHeaders(301, -1);
      exchange.close();
    });
    other.start();
    redirecting.start();
    try {
      assertThatThrownBy(() -> discover(Actor.USER, "url", "http://127.0.0.1:" + redirecting.getAddress().getPort() + "/",
          "user", "alice", "password_env", "DAV_PASSWORD"))
          .isInstanceOf(RoundhouseException.Forbidden.class)
          .hasMessageContaining("a redirect from /.well-known/caldav leads to http://localhost:" + other.getAddress().getPort()
              + "/dav/, another server")
          .hasMessageContaining("the credentials are not sent there");
      assertThat(otherRequests.get()).isZero();
    } finally {
      redirecting.stop(0);
      other.stop(0);
    }
  }

  @Test
  void suggestedIdsComeFromThePathAndNeverRepeat() {
    Set<String> taken = new HashSet<>(Set.of("work"));
    assertThat(CalendarDiscovery.uniqueId(URI.create("https://dav.example.org/alice/Work/"), taken)).isEqualTo("work-2");
    assertThat(CalendarDiscovery.uniqueId(URI.create("https://dav.example.org/alice/Family%20Events/"), taken)).isEqualTo("family-events");
    assertThat(CalendarDiscovery.uniqueId(URI.create("https://dav.example.org/"), taken)).isEqualTo("calendar");
    assertThat(CalendarDiscovery.uniqueId(URI.create("https://dav.example.org/_x/"), taken)).isEqualTo("x");
  }
}
