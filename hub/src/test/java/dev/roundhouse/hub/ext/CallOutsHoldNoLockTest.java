package dev.roundhouse.hub.ext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventStream;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.ExtensionResource;
import dev.roundhouse.hub.spi.HubExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hub calls an extension's code (start, answer handlers, resource readers, close) and hands events to its
 * subscribers with no tracked lock held, and refuses to do so from a thread that holds one.
 */
class CallOutsHoldNoLockTest {
  private static final String KIND = "watch_proposal";
  private static final String RESOURCE = "watch://all";

  @TempDir Path home;

  private final ReentrantLock testLock = Locks.tracked("test");

  @AfterEach
  void nothingLeftHeld() {
    assertThat(Locks.heldCount()).isZero();
  }

  /** An extension that notes, at each call the hub makes into it, how many tracked locks its thread held. */
  static final class Watcher implements HubExtension {
    final List<String> calls = new CopyOnWriteArrayList<>();
    final AtomicReference<ExtensionContext> context = new AtomicReference<>();

    private void called(String what) {
      calls.add(what + " with " + Locks.heldCount() + " held");
    }

    @Override
    public String name() {
      return "watcher";
    }

    @Override
    public void start(ExtensionContext started) {
      called("start");
      context.set(started);
      started.decisions().onAnswer(KIND, (decision, answer, message, actor) -> called("answer " + answer));
      started.offerResource(new ExtensionResource(RESOURCE, "all", "All", "Everything watched.", "text/plain", null,
          (actor, uri, variables) -> {
            called("read");
            return new ExtensionResource.Contents("text/plain", "all", Map.of());
          }));
    }

    @Override
    public void close() {
      called("close");
    }
  }

  @Test
  void theHubCallsAnExtensionAndDeliversItsEventsWithNoLockHeld() throws Exception {
    Watcher watcher = new Watcher();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(watcher));
        EventStream stream = hub.events().open(0, 64)) {
      ExtensionContext context = watcher.context.get();
      Decision decision = context.decisions().open(Actor.USER, KIND, null, null, "Watch it?", Json.tree(Map.of()), List.of("yes", "no"));
      answer(hub, decision.id(), "yes");
      assertThat(hub.resources().find(RESOURCE).orElseThrow().read(Actor.USER).text()).isEqualTo("all");
      context.resourcesChanged(Actor.USER, RESOURCE);

      // Each event reached the stream through EventBus.published, which refuses to run under a tracked lock.
      assertThat(typesUntil(stream, ExtensionResources.UPDATED))
          .containsSubsequence("decision.opened", "decision.answered", ExtensionResources.UPDATED);
    }
    assertThat(watcher.calls).containsExactly(
        "start with 0 held", "answer yes with 0 held", "read with 0 held", "close with 0 held");
  }

  @Test
  void answeringReadingOrReportingAChangeUnderATrackedLockIsRefused() {
    Watcher watcher = new Watcher();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(watcher))) {
      ExtensionContext context = watcher.context.get();
      Decision decision = context.decisions().open(Actor.USER, KIND, null, null, "Watch it?", Json.tree(Map.of()), List.of("yes", "no"));
      ExtensionResources.Found found = hub.resources().find(RESOURCE).orElseThrow();

      testLock.lock();
      try {
        assertThatThrownBy(() -> answer(hub, decision.id(), "yes"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("calling the answer handler of 'watch_proposal' decisions while holding the test lock; "
                + "no lock may be held when calling out");
        assertThatThrownBy(() -> found.read(Actor.USER))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("calling the reader of resource watch://all while holding the test lock");
        assertThatThrownBy(() -> context.resourcesChanged(Actor.USER, RESOURCE))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("calling the event bus's subscribers while holding the test lock");
      } finally {
        testLock.unlock();
      }
      assertThat(watcher.calls).containsExactly("start with 0 held");
      assertThat(hub.decisions().get(decision.id()).orElseThrow().status()).isEqualTo(Decision.PENDING);

      answer(hub, decision.id(), "no");
      assertThat(found.read(Actor.USER).text()).isEqualTo("all");
      assertThat(watcher.calls).containsExactly("start with 0 held", "answer no with 0 held", "read with 0 held");
    }
  }

  @Test
  void openingAHubUnderATrackedLockIsRefusedBeforeAnExtensionStarts() {
    Watcher watcher = new Watcher();
    testLock.lock();
    try {
      assertThatThrownBy(() -> Hub.open(HubConfig.forHome(home), List.of(), List.of(watcher)).close())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("calling extension watcher's start while holding the test lock");
    } finally {
      testLock.unlock();
    }
    assertThat(watcher.calls).isEmpty();
    // the refused hub let go of its home
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(watcher))) {
      assertThat(watcher.calls).containsExactly("start with 0 held");
    }
  }

  private static JsonNode answer(Hub hub, long decision, String answer) {
    return hub.operations().invoke("decision_answer", Actor.USER, Json.tree(Map.of("decision", decision, "answer", answer)));
  }

  private static List<String> typesUntil(EventStream stream, String last) throws InterruptedException {
    List<String> types = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      Event event = stream.next(Duration.ofMillis(200)).orElse(null);
      if (event != null) {
        types.add(event.type());
        if (event.type().equals(last)) {
          return types;
        }
      }
    }
    return types;
  }
}
