package dev.roundhouse.hub.store;

import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's single writer, with group commit.
 *
 * <p>Callers enqueue work and wait. The writer thread takes whatever has queued up (at most {@code
 * maxBatch} pieces), runs each piece inside a savepoint of one transaction, commits once (one fsync with
 * {@code synchronous=FULL}), and only then completes the callers and hands the batch's events to the
 * {@link EventSink}, in sequence order. A piece that throws rolls back to its savepoint and fails alone.
 *
 * <p>Maintenance that SQLite refuses inside a transaction ({@code VACUUM}, a WAL checkpoint) is submitted
 * with {@link #submitOutsideTransaction}: it runs on the writer thread too, in queue order, after the
 * writes queued before it have committed and before those queued after it begin, so it never overlaps a
 * write and needs no lock.
 *
 * <p>Thread-safe. Only the writer thread touches the handle; no lock is held while calling out.
 */
final class GroupCommitWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GroupCommitWriter.class);
  private static final Job<?> STOP = new Job<>(w -> null, true, null);

  private final Handle handle;
  private final int maxBatch;
  private final EventSink sink;
  private final Function<List<Event>, StoreWriterContext> contexts;
  private final BlockingQueue<Job<?>> queue = new LinkedBlockingQueue<>();
  private final Savepoints savepoints;
  private final Thread thread;
  private volatile boolean closed;
  private final boolean failureAbortsTransaction;
  private final Consumer<Handle> afterBegin;
  private final LongAdder commits = new LongAdder();
  private final LongAdder committedWrites = new LongAdder();
  private final LongAdder commitNanos = new LongAdder();
  /** Runs between the closed check and the enqueue: a seam for the test that drives a close() into that gap. */
  private volatile Runnable beforeEnqueue = () -> {};

  /** What one piece of work writes through, bound to the events it appends. */
  interface StoreWriterContext extends StoreWriter {}

  GroupCommitWriter(
      Handle handle,
      int maxBatch,
      EventSink sink,
      Function<List<Event>, StoreWriterContext> contexts) {
    this(handle, maxBatch, sink, contexts, false);
  }

  /**
   * @param failureAbortsTransaction a failed statement aborts the whole transaction (PostgreSQL; SQLite
   *     undoes the statement alone): a single-statement write that fails without a savepoint then fails its
   *     whole group, which is rolled back rather than committed
   */
  GroupCommitWriter(
      Handle handle,
      int maxBatch,
      EventSink sink,
      Function<List<Event>, StoreWriterContext> contexts,
      boolean failureAbortsTransaction) {
    this(handle, maxBatch, sink, contexts, failureAbortsTransaction, h -> {});
  }

  /**
   * @param afterBegin runs first in every group's transaction (PostgreSQL's workers take the writers' turn
   *     there); what it throws fails the group
   */
  GroupCommitWriter(
      Handle handle,
      int maxBatch,
      EventSink sink,
      Function<List<Event>, StoreWriterContext> contexts,
      boolean failureAbortsTransaction,
      Consumer<Handle> afterBegin) {
    this.failureAbortsTransaction = failureAbortsTransaction;
    this.afterBegin = afterBegin;
    if (maxBatch < 1) {
      throw new IllegalArgumentException("maxBatch must be at least 1");
    }
    this.handle = handle;
    this.maxBatch = maxBatch;
    this.sink = sink;
    this.contexts = contexts;
    this.savepoints = new Savepoints(handle.getConnection());
    this.thread = Thread.ofPlatform().name("roundhouse-store-writer").daemon(true).start(this::run);
  }

  <T> T submit(Function<StoreWriter, T> work) {
    return submit(work, false);
  }

  /**
   * @param singleStatement the work runs exactly one SQL statement, which SQLite makes atomic by itself, so
   *     it needs no savepoint to fail alone
   */
  <T> T submit(Function<StoreWriter, T> work, boolean singleStatement) {
    return await(enqueue(new Job<>(work, singleStatement, null)));
  }

  /**
   * Runs {@code work} on the writer thread with no transaction open (for {@code VACUUM} and checkpoints),
   * between the group commits of the writes queued before and after it. It appends no events.
   */
  <T> T submitOutsideTransaction(Function<Handle, T> work) {
    return await(enqueue(new Job<T>(null, false, work)));
  }

  private <T> Job<T> enqueue(Job<T> job) {
    if (Thread.currentThread() == thread) {
      throw new IllegalStateException("Store.write called from inside a write");
    }
    if (closed) {
      throw new RoundhouseException("store_closed", "the store is closed");
    }
    beforeEnqueue.run();
    queue.add(job);
    // A close() between the check above and the add may have drained the queue and stopped the writer, and
    // nothing would ever complete this job. close() sets `closed` before it enqueues STOP, so a job added too
    // late always sees it here; whoever removes the job from the queue owns it: if we do, it never ran.
    if (closed && queue.remove(job)) {
      throw new RoundhouseException("store_closed", "the store is closed");
    }
    return job;
  }

  private static <T> T await(Job<T> job) {
    // Once queued, the write will happen: wait for its outcome even if interrupted (writes are short), so
    // the caller never mistakes a committed write for a failed one; the interrupt is kept for later.
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return job.result.get();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new RoundhouseException("store_error", "write failed: " + e.getCause(), e.getCause());
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Test seam: {@code action} runs in {@link #submit} after the closed check, before the job is queued. */
  void beforeEnqueue(Runnable action) {
    this.beforeEnqueue = action;
  }

  private void run() {
    List<Job<?>> batch = new ArrayList<>(maxBatch);
    while (true) {
      try {
        Job<?> first = queue.take();
        if (first == STOP) {
          break;
        }
        batch.add(first);
        queue.drainTo(batch, maxBatch - 1);
        boolean stop = batch.remove(STOP);
        commitInOrder(batch);
        batch.clear();
        if (stop) {
          break;
        }
      } catch (InterruptedException e) {
        break;
      }
    }
    for (Job<?> left; (left = queue.poll()) != null; ) {
      left.result.completeExceptionally(new RoundhouseException("store_closed", "the store is closed"));
    }
  }

  /** Commits the batch's writes in groups, running maintenance jobs between them in queue order. */
  private void commitInOrder(List<Job<?>> batch) {
    List<Job<?>> group = new ArrayList<>(batch.size());
    for (Job<?> job : batch) {
      if (job.outsideTransaction == null) {
        group.add(job);
        continue;
      }
      if (!group.isEmpty()) {
        commit(group);
        group.clear();
      }
      job.runOutsideTransaction(handle);
      job.complete();
    }
    if (!group.isEmpty()) {
      commit(group);
    }
  }

  private void commit(List<Job<?>> batch) {
    List<Event> events = new ArrayList<>();
    long began = System.nanoTime();
    try {
      handle.begin();
      afterBegin.accept(handle);
      // A lone write needs no savepoint: rolling back the transaction undoes exactly it.
      boolean isolate = batch.size() > 1;
      for (Job<?> job : batch) {
        job.run(savepoints, contexts, isolate);
      }
      if (!isolate && batch.getFirst().failure != null) {
        handle.rollback();
        batch.getFirst().complete();
        return;
      }
      Job<?> unisolated = failureAbortsTransaction ? firstUnisolatedFailure(batch) : null;
      if (unisolated != null) {
        // The server has aborted the transaction: a commit would only roll it back. Nothing of it was written.
        handle.rollback();
        RoundhouseException undone = new RoundhouseException("store_error",
            "not written: another write committed with it failed (" + unisolated.failure + ")", unisolated.failure);
        // Every other write fails with that cause: those after it failed only because the transaction was aborted.
        batch.forEach(job -> {
          if (job != unisolated) {
            job.events.clear();
            job.failure = undone;
          }
          job.complete();
        });
        return;
      }
      handle.commit();
      commits.increment();
      committedWrites.add(batch.size());
      commitNanos.add(System.nanoTime() - began);
    } catch (RuntimeException | Error e) {
      log.error("store transaction failed; rolling back {} writes", batch.size(), e);
      try {
        handle.rollback();
      } catch (RuntimeException rollbackFailure) {
        e.addSuppressed(rollbackFailure);
      }
      RoundhouseException failure =
          new RoundhouseException("store_error", "the store could not commit: " + e.getMessage(), e);
      batch.forEach(job -> job.result.completeExceptionally(failure));
      return;
    }
    long committedAt = System.nanoTime();
    for (Job<?> job : batch) {
      events.addAll(job.events);
    }
    if (!events.isEmpty()) {
      try {
        // a piece of work that left a lock held on this thread must not have the sink run under it
        Locks.assertNoneHeld("the event sink");
        sink.published(List.copyOf(events), committedAt);
      } catch (RuntimeException e) {
        log.error("event sink failed", e);
      }
    }
    batch.forEach(Job::complete);
  }

  /** Transactions committed, the writes they held, and the time from begin to commit, since the start. */
  StoreStats stats() {
    return new StoreStats(commits.sum(), committedWrites.sum(), commitNanos.sum());
  }

  private static Job<?> firstUnisolatedFailure(List<Job<?>> batch) {
    for (Job<?> job : batch) {
      if (job.singleStatement && job.failure != null) {
        return job;
      }
    }
    return null;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    queue.add(STOP);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    savepoints.close();
  }

  private static final class Job<T> {
    final Function<StoreWriter, T> work;
    final boolean singleStatement;
    final Function<Handle, T> outsideTransaction;
    final CompletableFuture<T> result = new CompletableFuture<>();
    final List<Event> events = new ArrayList<>();
    T value;
    Throwable failure;

    Job(Function<StoreWriter, T> work, boolean singleStatement, Function<Handle, T> outsideTransaction) {
      this.work = work;
      this.singleStatement = singleStatement;
      this.outsideTransaction = outsideTransaction;
    }

    void runOutsideTransaction(Handle handle) {
      try {
        value = outsideTransaction.apply(handle);
      } catch (RuntimeException | Error e) {
        failure = e;
      }
    }

    void run(Savepoints savepoints, Function<List<Event>, StoreWriterContext> contexts, boolean isolate) {
      if (!isolate || singleStatement) {
        try {
          value = work.apply(contexts.apply(events));
        } catch (RuntimeException | Error e) {
          events.clear();
          failure = e;
        }
        return;
      }
      savepoints.begin();
      try {
        value = work.apply(contexts.apply(events));
        savepoints.release();
      } catch (RuntimeException | Error e) {
        savepoints.rollback();
        events.clear();
        failure = e;
      }
    }

    void complete() {
      if (failure != null) {
        result.completeExceptionally(failure);
      } else {
        result.complete(value);
      }
    }
  }
}
