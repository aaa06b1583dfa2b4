package dev.roundhouse.hub.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupCommitTest {
  @TempDir Path dir;

  private static EventDraft draft(String type) {
    return new EventDraft(type, Actor.USER, null, null, JsonNodeFactory.instance.objectNode());
  }

  @Test
  void concurrentWritesAreAllDurableAndPublishedInSequenceOrder() throws Exception {
    List<Event> published = Collections.synchronizedList(new ArrayList<>());
    List<Integer> batchSizes = Collections.synchronizedList(new ArrayList<>());
    Path file = dir.resolve("g.db");
    int writers = 32;
    int each = 50;
    try (Store store =
            Store.sqlite(file, Clock.systemUTC(), 256, (events, at) -> {
              published.addAll(events);
              batchSizes.add(events.size());
            });
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        futures.add(pool.submit(() -> {
          go.await();
          for (int i = 0; i < each; i++) {
            int n = i;
            store.write(tx -> tx.append(draft("w" + writer + "." + n)));
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> f : futures) {
        f.get();
      }
      assertThat(store.lastSeq()).isEqualTo(writers * each);
    }
    assertThat(published).hasSize(writers * each);
    for (int i = 0; i < published.size(); i++) {
      assertThat(published.get(i).seq()).isEqualTo(i + 1);
    }
    // Writes that arrived together shared a transaction.
    assertThat(batchSizes.stream().mapToInt(Integer::intValue).max().orElse(0)).isGreaterThan(1);
    try (Store reopened = Store.sqlite(file, Clock.systemUTC(), 1, (e, t) -> {})) {
      assertThat(reopened.eventsAfter(0, 10_000)).hasSize(writers * each);
    }
  }

  @Test
  void aFailingWriteUndoesOnlyItselfAndPublishesNothing() throws Exception {
    List<Event> published = Collections.synchronizedList(new ArrayList<>());
    try (Store store = Store.sqlite(dir.resolve("f.db"), Clock.systemUTC(), 256, (events, at) -> published.addAll(events));
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int n = i;
        futures.add(pool.submit(() -> store.write(tx -> {
          tx.append(draft("e" + n));
          if (n % 2 == 1) {
            throw new IllegalStateException("odd write " + n + " fails");
          }
          return n;
        })));
      }
      int failed = 0;
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          assertThat(e.getCause()).isInstanceOf(IllegalStateException.class).hasMessageContaining("fails");
          failed++;
        }
      }
      assertThat(failed).isEqualTo(20);
      List<Event> stored = store.eventsAfter(0, 100);
      assertThat(stored).hasSize(20).allSatisfy(e -> assertThat(Integer.parseInt(e.type().substring(1)) % 2).isZero());
    }
    assertThat(published).hasSize(20).allSatisfy(e -> assertThat(Integer.parseInt(e.type().substring(1)) % 2).isZero());
  }

  /**
   * The sink (the event bus, in a hub) is called out to with no tracked lock held on the writer thread, though
   * the writers held locks of their own while they waited, and pieces of work took and released locks on the
   * writer thread.
   */
  @Test
  void theSinkIsCalledWithNoLockHeld() throws Exception {
    List<Integer> heldAtSink = Collections.synchronizedList(new ArrayList<>());
    ReentrantLock callers = Locks.tracked("test caller");
    ReentrantLock work = Locks.tracked("test work");
    try (Store store = Store.sqlite(dir.resolve("l.db"), Clock.systemUTC(), 256, (events, at) -> {
          heldAtSink.add(Locks.heldCount());
          Locks.assertNoneHeld("the test's sink"); // fails the batch (logged), and so the count below
        });
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        int n = i;
        futures.add(pool.submit(() -> {
          callers.lock(); // another thread's lock: the writer's call-out is not under it
          try {
            return store.write(tx -> {
              work.lock();
              try {
                return tx.append(draft("l" + n));
              } finally {
                work.unlock();
              }
            });
          } finally {
            callers.unlock();
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    }
    assertThat(heldAtSink).isNotEmpty().containsOnly(0);
  }

  /** A piece of work that leaves a lock held on the writer thread does not get the sink called under it. */
  @Test
  void aWriteThatLeavesALockHeldIsNotPublishedUnderIt() {
    List<Event> published = Collections.synchronizedList(new ArrayList<>());
    ReentrantLock leaked = Locks.tracked("leaked");
    try (Store store = Store.sqlite(dir.resolve("k.db"), Clock.systemUTC(), 8, (events, at) -> published.addAll(events))) {
      store.write(tx -> tx.append(draft("before")));
      @SuppressWarnings("LockNotBeforeTry") // the bug under test: a lock taken and never released
      Event written = store.write(tx -> {
        leaked.lock();
        return tx.append(draft("under-lock"));
      });
      assertThat(written.type()).isEqualTo("under-lock"); // the write itself committed
      assertThat(store.eventsAfter(0, 10)).extracting(Event::type).containsExactly("before", "under-lock");
    }
    assertThat(published).extracting(Event::type).containsExactly("before");
  }

  @Test
  void writingFromInsideAWriteIsRefused() {
    try (Store store = Store.sqlite(dir.resolve("n.db"), Clock.systemUTC(), 8, (e, t) -> {})) {
      assertThatThrownBy(() -> store.write(tx -> store.write(inner -> 1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("inside a write");
      int value = store.write(tx -> 2);
      assertThat(value).isEqualTo(2);
    }
  }

  @Test
  void eventsArePublishedOnlyAfterTheyAreDurable() {
    Path file = dir.resolve("d.db");
    List<Long> visibleToAnotherConnection = new ArrayList<>();
    try (Store store = Store.sqlite(file, Clock.systemUTC(), 8, (events, at) -> {
      // A separate connection sees the events at the moment they are published: they are committed.
      try (var handle = org.jdbi.v3.core.Jdbi.create("jdbc:sqlite:" + file).open()) {
        visibleToAnotherConnection.add(handle.createQuery("SELECT count(*) FROM events").mapTo(Long.class).one());
      }
    })) {
      store.write(tx -> tx.append(draft("a")));
      store.write(tx -> tx.append(draft("b")));
    }
    assertThat(visibleToAnotherConnection).containsExactly(1L, 2L);
  }

  @Test
  void writesAfterCloseAreRefusedWithAClearError() {
    Store store = Store.sqlite(dir.resolve("c.db"), Clock.systemUTC(), 8, (e, t) -> {});
    store.close();
    assertThatThrownBy(() -> store.write(tx -> 1)).hasMessageContaining("the store is closed");
    assertThatThrownBy(() -> store.read(r -> 1)).hasMessageContaining("the store is closed");
  }

  /**
   * A close() that lands between submit's closed check and its enqueue used to leave the job in a queue no
   * one drains, and the caller waited forever. The seam puts the close() exactly there.
   */
  @Test
  void aWriteRacingCloseIsRefusedInsteadOfWaitingForever() {
    org.jdbi.v3.core.Handle handle = org.jdbi.v3.core.Jdbi.open("jdbc:sqlite:" + dir.resolve("race.db"));
    GroupCommitWriter writer = new GroupCommitWriter(handle, 8, (events, at) -> {}, events -> {
      throw new AssertionError("the raced job must never run");
    });
    writer.beforeEnqueue(writer::close);
    try {
      assertThatThrownBy(() -> org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
              java.time.Duration.ofSeconds(10), () -> writer.submit(w -> 1)))
          .hasMessageContaining("the store is closed");
    } finally {
      handle.close();
    }
  }
}
