package dev.roundhouse.hub.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tracked locks count per thread what the thread holds, and {@link Locks#assertNoneHeld} refuses a call-out under one. */
class LocksTest {
  private final ReentrantLock audit = Locks.tracked("audit");
  private final ReentrantLock cache = Locks.tracked("cache");

  @AfterEach
  void nothingLeftHeld() {
    assertThat(Locks.heldCount()).as("tracked locks left held by the test thread").isZero();
  }

  @Test
  @SuppressWarnings("LockNotBeforeTry") // takes and releases locks in a deliberate order, not in try blocks
  void eachAcquisitionCountsUntilItIsReleased() {
    assertThat(Locks.heldCount()).isZero();
    audit.lock();
    assertThat(Locks.heldCount()).isEqualTo(1);
    audit.lock(); // reentrant: held twice, released twice
    cache.lock();
    assertThat(Locks.heldCount()).isEqualTo(3);
    audit.unlock(); // not in the order taken
    assertThat(Locks.heldCount()).isEqualTo(2);
    cache.unlock();
    assertThat(Locks.heldCount()).isEqualTo(1);
    audit.unlock();
    assertThat(Locks.heldCount()).isZero();
    assertThat(audit.isLocked()).isFalse();
  }

  @Test
  void assertNoneHeldNamesTheCallOutAndTheLocksHeld() {
    assertThatCode(() -> Locks.assertNoneHeld("the event sink")).doesNotThrowAnyException();
    audit.lock();
    try {
      cache.lock();
      try {
        assertThatThrownBy(() -> Locks.assertNoneHeld("the event sink"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("calling the event sink while holding the audit lock, the cache lock; no lock may be held when calling out");
      } finally {
        cache.unlock();
      }
    } finally {
      audit.unlock();
    }
    assertThatCode(() -> Locks.assertNoneHeld("the event sink")).doesNotThrowAnyException();
  }

  @Test
  void aLockIsReleasedFromTheCountWhenTheGuardedCodeThrows() {
    assertThatThrownBy(() -> {
      audit.lock();
      try {
        throw new IllegalArgumentException("boom");
      } finally {
        audit.unlock();
      }
    }).hasMessage("boom");
    assertThat(Locks.heldCount()).isZero();
    assertThat(audit.isHeldByCurrentThread()).isFalse();
  }

  @Test
  void aVirtualThreadSeesOnlyTheLocksItHoldsItself() throws Exception {
    AtomicInteger heldThere = new AtomicInteger(-1);
    AtomicReference<Throwable> refusedThere = new AtomicReference<>();
    audit.lock();
    try {
      Thread.ofVirtual().start(() -> {
        heldThere.set(Locks.heldCount()); // the test thread's lock is not this thread's
        cache.lock();
        try {
          Locks.assertNoneHeld("a driver");
        } catch (IllegalStateException e) {
          refusedThere.set(e);
        } finally {
          cache.unlock();
        }
      }).join(Duration.ofSeconds(10));
      assertThat(Locks.heldCount()).isEqualTo(1);
    } finally {
      audit.unlock();
    }
    assertThat(heldThere).hasValue(0);
    assertThat(refusedThere.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("calling a driver while holding the cache lock");
  }

  @Test
  void aVirtualThreadThatParksHoldingALockKeepsItCountedWhereverItResumes() throws Exception {
    CountDownLatch parked = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    CompletableFuture<Integer> heldAfterPark = new CompletableFuture<>();
    Thread worker = Thread.ofVirtual().start(() -> {
      cache.lock();
      try {
        parked.countDown();
        resume.await(); // the virtual thread unmounts; it may come back on another carrier
        heldAfterPark.complete(Locks.heldCount());
      } catch (InterruptedException e) {
        heldAfterPark.completeExceptionally(e);
      } finally {
        cache.unlock();
      }
    });
    assertThat(parked.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(Locks.heldCount()).isZero();
    resume.countDown();
    assertThat(heldAfterPark.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    worker.join(Duration.ofSeconds(10));
  }

  @Test
  void aTryLockCountsOnlyWhenItTakesTheLock() throws Exception {
    CountDownLatch taken = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = Thread.ofVirtual().start(() -> {
      audit.lock();
      try {
        taken.countDown();
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        audit.unlock();
      }
    });
    assertThat(taken.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(audit.tryLock()).isFalse();
    assertThat(audit.tryLock(1, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(Locks.heldCount()).isZero();
    release.countDown();
    holder.join(Duration.ofSeconds(10));

    assertThat(audit.tryLock(10, TimeUnit.SECONDS)).isTrue();
    try {
      assertThat(Locks.heldCount()).isEqualTo(1);
    } finally {
      audit.unlock();
    }
    audit.lockInterruptibly();
    try {
      assertThat(Locks.heldCount()).isEqualTo(1);
    } finally {
      audit.unlock();
    }
  }

  @Test
  void anUnlockByAThreadThatDoesNotHoldTheLockFailsAndCountsNothing() {
    assertThatThrownBy(audit::unlock).isInstanceOf(IllegalMonitorStateException.class);
    assertThat(Locks.heldCount()).isZero();
    cache.lock();
    try {
      assertThatThrownBy(audit::unlock).isInstanceOf(IllegalMonitorStateException.class);
      assertThat(Locks.heldCount()).isEqualTo(1);
    } finally {
      cache.unlock();
    }
  }

  @Test
  void anUntrackedLockIsNotSeen() {
    ReentrantLock plain = new ReentrantLock();
    plain.lock();
    try {
      assertThat(Locks.heldCount()).isZero();
      assertThatCode(() -> Locks.assertNoneHeld("an extension")).doesNotThrowAnyException();
    } finally {
      plain.unlock();
    }
  }
}
