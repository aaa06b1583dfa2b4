package dev.roundhouse.hub.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.store.Store;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventBusTest {
  @TempDir Path dir;
  private EventBus bus;
  private Store store;

  @BeforeEach
  void open() {
    bus = new EventBus();
    store = Store.sqlite(dir.resolve("events.db"), Clock.systemUTC(), 64, bus);
    bus.attach(store);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private void append(int count) {
    for (int i = 0; i < count; i++) {
      store.write(tx -> tx.append(new EventDraft("test.event", Actor.USER, null, null, JsonNodeFactory.instance.objectNode())));
    }
  }

  private static List<Long> read(EventStream stream, int count) throws InterruptedException {
    List<Long> seqs = new ArrayList<>();
    while (seqs.size() < count) {
      Optional<Event> next = stream.next(Duration.ofSeconds(10));
      assertThat(next).as("event %d of %d arrives", seqs.size() + 1, count).isPresent();
      seqs.add(next.get().seq());
    }
    return seqs;
  }

  @Test
  void streamReplaysTheLogThenFollowsLiveWithoutGapOrDuplicate() throws Exception {
    append(30);
    try (EventStream stream = bus.open(10, 1000);
        ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor()) {
      // Writers keep appending while the stream is replaying.
      Future<?> more = writers.submit(() -> append(70));
      List<Long> seqs = read(stream, 90);
      more.get();
      assertThat(seqs).isEqualTo(java.util.stream.LongStream.rangeClosed(11, 100).boxed().toList());
      assertThat(stream.next(Duration.ofMillis(50))).isEmpty();
      assertThat(stream.position()).isEqualTo(100);
    }
    assertThat(bus.openStreams()).isZero();
  }

  @Test
  void aReaderThatFallsBehindIsClosedWithAReasonWhileOthersGetEverything() throws Exception {
    try (EventStream slow = bus.open(0, 5); EventStream fast = bus.open(0, 1000)) {
      // Both have caught up with the (empty) log and are live.
      assertThat(slow.next(Duration.ofMillis(10))).isEmpty();
      assertThat(fast.next(Duration.ofMillis(10))).isEmpty();
      append(20);
      assertThat(read(fast, 20)).hasSize(20).last().isEqualTo(20L);
      // The slow reader still gets what was buffered before it fell behind, then the reason.
      List<Long> got = new ArrayList<>();
      assertThatThrownBy(() -> {
            while (true) {
              slow.next(Duration.ofSeconds(5)).ifPresent(e -> got.add(e.seq()));
            }
          })
          .isInstanceOf(EventStream.EventStreamClosed.class)
          .hasMessageContaining("fell more than")
          .hasMessageContaining("reconnect");
      assertThat(got).isNotEmpty().isEqualTo(java.util.stream.LongStream.rangeClosed(1, got.size()).boxed().toList());
      // Resuming from where it stopped misses nothing.
      try (EventStream resumed = bus.open(slow.position(), 1000)) {
        List<Long> rest = read(resumed, 20 - got.size());
        assertThat(rest.getFirst()).isEqualTo(got.getLast() + 1);
        assertThat(rest.getLast()).isEqualTo(20L);
      }
    }
  }

  @Test
  void closingAStreamEndsItAndUnsubscribes() throws Exception {
    EventStream stream = bus.open(0, 10);
    assertThat(bus.openStreams()).isEqualTo(1);
    stream.close();
    assertThat(bus.openStreams()).isZero();
    assertThatThrownBy(() -> stream.next(Duration.ofMillis(10))).isInstanceOf(EventStream.EventStreamClosed.class);
  }

  @Test
  void liveEventsCarryTheirCommitTimeAndReplayedOnesDoNot() throws Exception {
    append(1);
    try (EventStream stream = bus.open(0, 10)) {
      read(stream, 1);
      assertThat(stream.committedAtNanos()).isZero();
      assertThat(stream.next(Duration.ofMillis(10))).isEmpty();
      append(1);
      read(stream, 1);
      assertThat(stream.committedAtNanos()).isPositive().isLessThanOrEqualTo(System.nanoTime());
    }
  }

  private static Event delta(String text) {
    return new Event(0, "turn.text_delta", java.time.Instant.EPOCH, Actor.USER, null, null, JsonNodeFactory.instance.objectNode().put("text", text));
  }

  @Test
  void aTransientEventThatWaitedWhileTheReplayReadWhatFollowedItIsDropped() throws Exception {
    append(2);
    try (EventStream stream = bus.open(0, 10)) {
      // Registered, not yet replayed: the delta waits in the buffer while the event that sums it up commits.
      bus.publishTransient(delta("stale"));
      append(1);
      assertThat(read(stream, 3)).containsExactly(1L, 2L, 3L);
      assertThat(stream.next(Duration.ofMillis(20))).as("the delta would show after its own summary").isEmpty();
      bus.publishTransient(delta("fresh"));
      append(1);
      Optional<Event> fresh = stream.next(Duration.ofSeconds(10));
      assertThat(fresh).map(event -> event.data().path("text").asText()).contains("fresh");
      assertThat(read(stream, 1)).containsExactly(4L);
    }
  }

  @Test
  void aTransientEventPublishedAfterTheReplayedOnesIsPassedOnInOrder() throws Exception {
    append(2);
    try (EventStream stream = bus.open(0, 10)) {
      append(1);
      bus.publishTransient(delta("after three"));
      assertThat(read(stream, 3)).containsExactly(1L, 2L, 3L);
      assertThat(stream.next(Duration.ofSeconds(10))).map(event -> event.data().path("text").asText()).contains("after three");
    }
  }
}
