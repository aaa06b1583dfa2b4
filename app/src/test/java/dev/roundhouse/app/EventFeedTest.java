package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.hub.testing.Waits;
import dev.roundhouse.hubclient.SseReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventFeedTest {
  private static final Duration DEADLINE = Duration.ofSeconds(15);

  @TempDir Path home;

  private final BlockingQueue<SseReader.Message> received = new LinkedBlockingQueue<>();
  private final List<String> notices = new CopyOnWriteArrayList<>();

  @Test
  void followReconnectsToARestartedServerWithoutMissingOrRepeatingEvents() throws Exception {
    Hub hub = Hub.open(HubConfig.forHome(home));
    HubServer server = HubServer.start(hub);
    Context cli = context(home, home);
    AtomicLong last = new AtomicLong(-1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    try (EventFeed feed = new EventFeed(() -> HubEndpoint.locate(cli), Duration.ofMillis(20), notices::add)) {
      Thread runner = Thread.ofVirtual().start(() -> {
        try {
          last.set(feed.run(0, true, received::add));
        } catch (Throwable t) {
          failure.set(t);
        }
      });
      invoke(hub, "project_create", new BoardApi.ProjectCreate("web", Files.createDirectories(home.resolve("web")).toString(), null, null));
      createTask(hub, "A");
      assertThat(List.of(take(), take())).extracting(SseReader.Message::event).containsExactly("project.created", "task.created");

      server.close();
      createTask(hub, "B"); // written while no server listens
      Waits.until("the feed notices the lost stream", DEADLINE, () -> !notices.isEmpty());
      server = HubServer.start(hub);
      createTask(hub, "C");

      List<SseReader.Message> resumed = List.of(take(), take());
      assertThat(resumed).extracting(SseReader.Message::id).containsExactly("3", "4");
      assertThat(resumed).extracting(m -> Json.read(m.data(), com.fasterxml.jackson.databind.JsonNode.class).path("data").path("task").path("title").asText())
          .containsExactly("B", "C");
      Waits.until("the feed says it reconnected", DEADLINE, () -> notices.size() >= 2);
      assertThat(notices.get(0)).startsWith("lost the hub's event stream");
      assertThat(notices.get(1)).startsWith("reconnected to the hub at " + server.url()).endsWith("resuming after event 2");

      feed.close();
      assertThat(runner.join(DEADLINE)).as("run returns once the feed is closed").isTrue();
    } finally {
      server.close();
      hub.close();
    }
    assertThat(failure.get()).isNull();
    assertThat(last.get()).isEqualTo(4);
    assertThat(received).isEmpty();
  }

  @Test
  void replayEndsAtTheHubsEndEvent() {
    String script = "retry: 1000\n: roundhouse events after 0\n\n" + FakeEventServer.event(1, "task.created")
        + "event: end\ndata: {\"last_seq\":1}\n\n" + FakeEventServer.event(2, "task.created");
    try (FakeEventServer server = new FakeEventServer(List.of(script));
        EventFeed feed = new EventFeed(() -> server.endpoint(home), Duration.ofMillis(10), notices::add)) {
      long last = feed.run(0, false, received::add);

      assertThat(last).isEqualTo(1);
      assertThat(ids()).containsExactly("1");
      assertThat(server.queries).containsExactly("after=0&follow=false");
    }
  }

  @Test
  void replayFromAHubWithoutFollowFalseEndsAtTheFirstKeepAlive() {
    String script = ": roundhouse events after 5\n\n" + FakeEventServer.event(6, "task.created")
        + FakeEventServer.event(7, "task.updated") + ": keep-alive\n\n" + FakeEventServer.event(8, "task.updated");
    try (FakeEventServer server = new FakeEventServer(List.of(script));
        EventFeed feed = new EventFeed(() -> server.endpoint(home), Duration.ofMillis(10), notices::add)) {
      assertThat(feed.run(5, false, received::add)).isEqualTo(7);
      assertThat(ids()).containsExactly("6", "7");
    }
  }

  @Test
  void aReaderTheHubClosedResumesWithLastEventIdAndSkipsRepeats() {
    String first = FakeEventServer.event(1, "a") + FakeEventServer.event(2, "b")
        + "event: closed\ndata: {\"reason\":\"fell behind\",\"last_seq\":2}\n\n";
    String second = FakeEventServer.event(2, "b") + FakeEventServer.event(3, "c") + "event: end\ndata: {}\n\n";
    try (FakeEventServer server = new FakeEventServer(List.of(first, second));
        EventFeed feed = new EventFeed(() -> server.endpoint(home), Duration.ofMillis(10), notices::add)) {
      assertThat(feed.run(0, false, received::add)).isEqualTo(3);
      assertThat(ids()).containsExactly("1", "2", "3");
      assertThat(server.lastEventIds).containsExactly("none", "2");
    }
  }

  @Test
  void aReplayCutShortFailsWithExit3() {
    try (FakeEventServer server = new FakeEventServer(List.of(FakeEventServer.event(1, "a")));
        EventFeed feed = new EventFeed(() -> server.endpoint(home), Duration.ofMillis(10), notices::add)) {
      CliFailure failure = org.junit.jupiter.api.Assertions.assertThrows(CliFailure.class, () -> feed.run(0, false, received::add));

      assertThat(failure.exit()).isEqualTo(ExitCode.NO_HUB);
      assertThat(failure.getMessage()).contains("ended before the replay was complete", "last event 1");
    }
  }

  @Test
  void closeEndsAFollowThatIsWaitingForTheHubToComeBack() throws Exception {
    try (FakeEventServer server = new FakeEventServer(List.of(FakeEventServer.event(1, "a")))) {
      AtomicLong attempts = new AtomicLong();
      EventFeed feed = new EventFeed(
          () -> {
            if (attempts.getAndIncrement() == 0) {
              return server.endpoint(home);
            }
            throw HubEndpoint.notRunning(home);
          },
          Duration.ofHours(1),
          notices::add);
      AtomicLong last = new AtomicLong(-1);
      Thread runner = Thread.ofVirtual().start(() -> last.set(feed.run(0, true, received::add)));
      Waits.until("the feed notices the stream ended", DEADLINE, () -> !notices.isEmpty());

      feed.close();

      assertThat(runner.join(DEADLINE)).isTrue();
      assertThat(last.get()).isEqualTo(1);
    }
  }

  private SseReader.Message take() throws InterruptedException {
    SseReader.Message message = received.poll(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(message).as("an event within %s", DEADLINE).isNotNull();
    return message;
  }

  private List<String> ids() {
    List<String> ids = new ArrayList<>();
    received.forEach(m -> ids.add(m.id()));
    return ids;
  }

  private static void createTask(Hub hub, String title) {
    invoke(hub, "task_create", new BoardApi.TaskCreate("web", title, null, null, null, null, null, null, null, null, null, null));
  }

  private static void invoke(Hub hub, String operation, Object input) {
    hub.operations().invoke(operation, Actor.USER, Json.tree(input));
  }
}
