package dev.roundhouse.hub.http;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.SseTestClient;
import dev.roundhouse.hub.testing.SseTestClient.SseEvent;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventStreamHttpTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private TestHub hub;
  private HttpTestClient http;

  private void start(int streamBuffer) {
    hub = TestHub.start(c -> c.withStreamBuffer(streamBuffer));
    http = hub.http();
    http.op("project_create", map("name", "web", "path", hub.folder("web")));
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  private long createTasks(int count, String prefix) {
    long last = 0;
    for (int i = 0; i < count; i++) {
      last = http.op("task_create", map("project", "web", "title", prefix + i)).get("id").asLong();
    }
    return last;
  }

  private static SseEvent nextEvent(SseTestClient sse) {
    SseEvent event = sse.next(WAIT);
    assertThat(event.id()).as("event %s has an id", event.event()).isNotNull();
    return event;
  }

  @Test
  void reconnectingWithLastEventIdReplaysExactlyWhatWasMissed() {
    start(1024);
    createTasks(10, "before-");
    List<Long> seen = new ArrayList<>();
    try (SseTestClient first = SseTestClient.open(http, "/api/events?after=0")) {
      assertThat(first.status()).isEqualTo(200);
      for (int i = 0; i < 6; i++) {
        seen.add(Long.parseLong(nextEvent(first).id()));
      }
    }
    createTasks(5, "while-away-");
    try (SseTestClient second = SseTestClient.open(http, "/api/events?after=0", "Last-Event-ID", String.valueOf(seen.getLast()))) {
      for (int i = 0; i < 10; i++) {
        SseEvent event = nextEvent(second);
        seen.add(Long.parseLong(event.id()));
        assertThat(event.json().get("seq").asLong()).isEqualTo(Long.parseLong(event.id()));
      }
    }
    // project.created + 15 task.created, each exactly once and in order.
    assertThat(seen).isEqualTo(java.util.stream.LongStream.rangeClosed(1, 16).boxed().toList());
  }

  @Test
  void liveEventsFollowTheReplay() {
    start(1024);
    try (SseTestClient sse = SseTestClient.open(http, "/api/events?after=0")) {
      assertThat(nextEvent(sse).event()).isEqualTo("project.created");
      long id = createTasks(1, "live-");
      SseEvent created = nextEvent(sse);
      assertThat(created.event()).isEqualTo("task.created");
      assertThat(created.json().at("/data/task/id").asLong()).isEqualTo(id);
      assertThat(created.json().get("actor").asText()).isEqualTo("user");
    }
  }

  @Test
  void withoutAStartingPointTheStreamIsLiveOnly() {
    start(1024);
    try (SseTestClient sse = SseTestClient.open(http, "/api/events")) {
      Waits.until("the stream is subscribed", WAIT, () -> hub.hub().events().openStreams() == 1);
      createTasks(1, "x");
      assertThat(nextEvent(sse).event()).isEqualTo("task.created");
    }
  }

  @Test
  void followFalseReplaysThenEnds() {
    start(1024);
    createTasks(3, "t");
    try (SseTestClient sse = SseTestClient.open(http, "/api/events?after=1&follow=false")) {
      for (int i = 0; i < 3; i++) {
        assertThat(nextEvent(sse).event()).isEqualTo("task.created");
      }
      SseEvent end = sse.next(WAIT);
      assertThat(end.event()).isEqualTo("end");
      assertThat(end.json().get("last_seq").asLong()).isEqualTo(4);
      assertThat(sse.ended(WAIT)).isTrue();
    }
  }

  @Test
  void aStalledViewerIsDisconnectedWithAReasonWithoutStallingTheHubOrOtherViewers() throws Exception {
    start(8);
    String description = "d".repeat(60_000);
    try (Socket stalled = new Socket();
        SseTestClient healthy = SseTestClient.open(http, "/api/events")) {
      stalled.setReceiveBufferSize(4096);
      stalled.connect(new InetSocketAddress("127.0.0.1", hub.server().port()));
      OutputStream out = stalled.getOutputStream();
      out.write(("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + http.token() + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Waits.until("both viewers subscribed", WAIT, () -> hub.hub().events().openStreams() == 2);

      int count = 200;
      for (int i = 0; i < count; i++) {
        http.op("task_create", map("project", "web", "title", "big" + i, "description", description));
      }
      // Every write went through, and the healthy viewer got every event, while the stalled one read nothing.
      for (int i = 0; i < count; i++) {
        assertThat(nextEvent(healthy).event()).isEqualTo("task.created");
      }
      Waits.until("the stalled viewer is dropped from the live fan-out", WAIT, () -> hub.hub().events().openStreams() == 1);

      // When it finally reads, it finds a prefix of the events and then the reason it was cut off.
      BufferedReader reader = new BufferedReader(new InputStreamReader(stalled.getInputStream(), StandardCharsets.UTF_8));
      String closedData = null;
      int events = 0;
      for (String line; (line = reader.readLine()) != null; ) {
        if (line.equals("event: task.created")) {
          events++;
        }
        if (line.equals("event: closed")) {
          closedData = reader.readLine();
          break;
        }
      }
      assertThat(events).isLessThan(count);
      assertThat(closedData).contains("fell more than").contains("last_seq");
    }
  }
}
